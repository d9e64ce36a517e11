import { formatNumber, type TTable, type TTableMetric, type TWidgetGoalResult } from "@app/core";
import type { ChartTarget } from "../charts/chart-common";

/** One goal as a widget shows it, all from the widget-data answer (its words and figures). */
export interface GoalView {
  /** The table column it is on. */
  metricKey: string;
  /** One goal per metric and period (the contract refuses a second): with the metric, the goal's key. */
  period: TWidgetGoalResult["period"];
  name: string;
  /** Bar fill, 0 to 100: how far along the value is to the target (or, under a ceiling, how much is used). */
  fill: number;
  /** The line before its verdict: '58,439 of 70,000 (83 %) · 3 days left · '. */
  lead: string;
  /** 'on pace for 64,100, 8 % short', 'target met'…; '' when the answer has no verdict. */
  status: string;
  tone: "good" | "bad" | "unknown";
  /** The whole line, as the answer says it. */
  text: string;
  /** How far along, in words, for the bar: '58,439 of 70,000 (83 %)'. */
  progressText: string;
  /** Named in the line when the widget shows several metrics. */
  showName: boolean;
}

/** The table column a goal is on (goals name their column key, `<prefix>.<metric>`). */
export function goalColumn(table: TTable, metric: string): TTableMetric | null {
  return table.metrics.find((column) => column.key === metric) ?? null;
}

/**
 * A goal's bar and line from the answer: the server's words (core goals/sentence.ts) and its figures;
 * nothing is worked out again here, so the dashboard, its public and print views, the PDF and the
 * report e-mail say the same.
 */
export function goalView(goal: TWidgetGoalResult, metric: TTableMetric, showName: boolean): GoalView {
  const lead = [goal.parts.progress, goal.parts.time].join(" · ");
  const status = goal.parts.pace ?? "";
  const progress = goal.progress === null || !Number.isFinite(goal.progress) ? 0 : goal.progress * 100;
  return {
    metricKey: goal.metric,
    period: goal.period,
    name: metric.label,
    fill: Math.max(0, Math.min(100, Math.round(progress))),
    lead: status ? `${lead} · ` : lead,
    status,
    tone: goal.onTrack === null ? "unknown" : goal.onTrack ? "good" : "bad",
    text: `${showName ? `${metric.label}: ` : ""}${goal.line}`,
    progressText: goal.parts.progress,
    showName,
  };
}

/** The goals a widget shows: those on a column of its table, in the answer's order. */
export function goalViews(goals: readonly TWidgetGoalResult[] | undefined, table: TTable): GoalView[] {
  const shown = (goals ?? []).flatMap((goal) => {
    const metric = goalColumn(table, goal.metric);
    return metric ? [{ goal, metric }] : [];
  });
  const named = new Set(shown.map(({ goal }) => goal.metric)).size > 1 || table.metrics.length > 1;
  return shown.map(({ goal, metric }) => goalView(goal, metric, named));
}

/**
 * The goals as a chart draws them: on a chart over days a day's share of a goal that adds up over days
 * (threshold ÷ the period's days: 'Target 2,258 a day'), the threshold itself for a rate or an average;
 * on a gauge the threshold. Goals without a threshold (a change goal with nothing to compare) draw nothing.
 */
export function chartTargets(goals: readonly TWidgetGoalResult[] | undefined, table: TTable): ChartTarget[] {
  const daily = table.dimension?.kind === "date";
  return (goals ?? []).flatMap((goal) => {
    const metric = goalColumn(table, goal.metric);
    if (!metric || goal.threshold === null || !Number.isFinite(goal.threshold)) return [];
    const perDay = daily && goal.aggregation === "sum" && goal.daysTotal > 0;
    // A day's share of a count reads as a whole number (167 sessions a day, not 166.67).
    const share = goal.threshold / goal.daysTotal;
    const value = perDay ? (metric.format === "number" ? Math.round(share) : share) : goal.threshold;
    const shown = formatNumber(value, { format: metric.format, currency: metric.currency ?? null });
    const word = goal.lowerIsBetter ? "Stay under" : "Target";
    return [
      { metricKey: goal.metric, value, label: `${word} ${shown}${perDay ? " a day" : ""}`, onTrack: goal.onTrack },
    ];
  });
}
