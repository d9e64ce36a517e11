import type { TWidgetGoalResult } from "../contract/dashboards";
import { formatDisplayDate } from "../dates/display";
import { formatChange, formatNumber, type NumberFormat } from "../format/number";
import { goalLineBody } from "../goals/sentence";
import { detectAnomalies, latestVerdict } from "../mission-control/anomaly";
import type { DailyValue } from "../mission-control/change";
import type { WidgetAlertCondition, WidgetAlertDirection } from "./contract";

/** What a rule says, as stored. */
export interface WidgetAlertRule {
  condition: WidgetAlertCondition;
  /** Threshold (above/below) or percentage (changeBy); null for anomaly and offPace. */
  value: number | null;
  direction: WidgetAlertDirection;
}

/** The widget's numbers for one evaluation, as the dashboard shows them. */
export interface WidgetAlertObservation {
  /** The metric's label in the widget's table ("Sessions"). */
  label: string;
  format?: NumberFormat;
  currency?: string | null;
  /** The metric's total over the dashboard's period; null when the widget has none. */
  current: number | null;
  /** Its total over the comparison period; null when there is none. */
  previous?: number | null;
  /** Daily values ending at the latest day (anomaly only). */
  series?: readonly DailyValue[];
  /** The most recent days the connector is still filling in (its settlingDays): never judged. */
  lagDays?: number;
  /**
   * The widget's goal on the metric as the widget-data answer computes it (offPace only): its verdict
   * and its line, never re-derived here. Absent when the answer had no goal on the metric.
   */
  goal?: Pick<TWidgetGoalResult, "onTrack" | "parts"> | null;
}

/**
 * `failing` opens (or keeps open) the alert, `passing` counts towards resolving it, `unknown` (no value,
 * no baseline, too little history) changes nothing: a provider hiccup must neither open nor resolve.
 */
export type WidgetAlertOutcome = "failing" | "passing" | "unknown";

export interface WidgetAlertVerdict {
  outcome: WidgetAlertOutcome;
  /** The value judged: the period's total, or the anomalous day's value. */
  value: number | null;
  /** One sentence for the e-mail and the alert list: "Sessions fell to 1,204, below 1,500". */
  message: string;
}

function directionMatches(direction: WidgetAlertDirection, up: boolean): boolean {
  return direction === "either" || (direction === "up") === up;
}

/** Percentages in sentences: one decimal below 10 %, none above (a 23.4 % fall reads as 23 %). */
function percentText(percent: number): string {
  const size = Math.abs(percent);
  return `${size < 10 ? size.toFixed(1).replace(/\.0$/, "") : Math.round(size)} %`;
}

/**
 * One evaluation of a widget alert rule: a pure function, so the table of cases in its test is the
 * whole specification. Comparisons are strict: "below 1,500" does not fire at exactly 1,500.
 */
export function evaluateWidgetAlert(rule: WidgetAlertRule, observation: WidgetAlertObservation): WidgetAlertVerdict {
  const { label } = observation;
  const show = (value: number | null | undefined) =>
    formatNumber(value, { format: observation.format ?? "number", currency: observation.currency ?? null });
  const current = observation.current;

  if (rule.condition === "offPace") {
    const goal = observation.goal;
    // No goal in the answer (its metric failed to load) or no verdict yet (no numbers, no baseline): unknown.
    if (!goal) return { outcome: "unknown", value: null, message: `${label} has no goal verdict yet.` };
    // One sentence, one colon: the goal's period goes in brackets after its name ("Sessions goal
    // (November) is off pace: 3,159 of 4,000 …"), not first in the figures as its card's line says it.
    const name = goal.parts.period === null ? `${label} goal` : `${label} goal (${goal.parts.period})`;
    const figures = goalLineBody(goal.parts);
    if (goal.onTrack === null) {
      return { outcome: "unknown", value: null, message: `${name} has no verdict yet: ${figures}` };
    }
    return {
      outcome: goal.onTrack ? "passing" : "failing",
      value: current ?? null,
      message: `${name} ${goal.onTrack ? "is on track" : "is off pace"}: ${figures}`,
    };
  }

  if (rule.condition === "anomaly") {
    const points = detectAnomalies(observation.series ?? [], { lagDays: observation.lagDays ?? 0 });
    const verdict = latestVerdict(points);
    if (!verdict || verdict.expected === null || verdict.low === null || verdict.high === null) {
      return {
        outcome: "unknown",
        value: null,
        message: `${label} has too little history to know its usual range yet.`,
      };
    }
    const day = formatDisplayDate(verdict.day);
    // The band is an estimate: whole numbers read better than 1,166.06–1,425.19 for counts.
    const rough = (value: number) =>
      (observation.format ?? "number") === "number" && Math.abs(value) >= 10 ? Math.round(value) : value;
    const band = `${show(rough(Math.max(0, verdict.low)))}–${show(rough(verdict.high))}`;
    if (verdict.anomalous && verdict.direction && directionMatches(rule.direction, verdict.direction === "up")) {
      const verb = verdict.direction === "up" ? "rose" : "fell";
      return {
        outcome: "failing",
        value: verdict.value,
        message: `${label} ${verb} to ${show(verdict.value)} on ${day}, outside the expected ${band}`,
      };
    }
    return {
      outcome: "passing",
      value: verdict.value,
      message: `${label} was ${show(verdict.value)} on ${day}, within the expected ${band}`,
    };
  }

  if (current === null || !Number.isFinite(current)) {
    return { outcome: "unknown", value: null, message: `${label} has no value for the period.` };
  }
  const threshold = rule.value ?? 0;

  if (rule.condition === "above" || rule.condition === "below") {
    const failing = rule.condition === "above" ? current > threshold : current < threshold;
    if (failing) {
      const verb = rule.condition === "above" ? "rose" : "fell";
      return {
        outcome: "failing",
        value: current,
        message: `${label} ${verb} to ${show(current)}, ${rule.condition} ${show(threshold)}`,
      };
    }
    return {
      outcome: "passing",
      value: current,
      message: `${label} is ${show(current)}, not ${rule.condition} ${show(threshold)}`,
    };
  }

  // changeBy: against the comparison period, as the widget's change figure shows it.
  const percent = formatChange(current, observation.previous);
  if (percent === null) {
    return {
      outcome: "unknown",
      value: current,
      message: `${label} has no value for the comparison period to compare ${show(current)} with.`,
    };
  }
  const versus = `against ${show(observation.previous)} in the comparison period`;
  const verb = percent >= 0 ? "rose" : "fell";
  const failing = Math.abs(percent) > threshold && directionMatches(rule.direction, percent > 0);
  return {
    outcome: failing ? "failing" : "passing",
    value: current,
    message: failing
      ? `${label} ${verb} ${percentText(percent)} to ${show(current)}, ${versus}`
      : `${label} changed ${percent >= 0 ? "+" : "−"}${percentText(percent)} to ${show(current)}, ${versus}`,
  };
}

/** The rule in words, for the alert list and the mail: "Sessions below 1,500". */
export function describeWidgetAlertRule(
  rule: WidgetAlertRule,
  label: string,
  options: { format?: NumberFormat; currency?: string | null } = {},
): string {
  const show = (value: number | null) =>
    formatNumber(value, { format: options.format ?? "number", currency: options.currency ?? null });
  const way = rule.direction === "up" ? "rises" : rule.direction === "down" ? "falls" : "changes";
  switch (rule.condition) {
    case "above":
      return `${label} above ${show(rule.value)}`;
    case "below":
      return `${label} below ${show(rule.value)}`;
    case "changeBy":
      return `${label} ${way} by more than ${rule.value ?? 0} % against the comparison period`;
    case "anomaly":
      return `${label} ${rule.direction === "either" ? "leaves" : way === "rises" ? "rises above" : "falls below"} its usual range`;
    case "offPace":
      return `${label} goal is off pace`;
  }
}
