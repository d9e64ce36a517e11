import { z } from "zod";
import { daysBetween } from "../dates/day";
import { formatDisplayDate } from "../dates/display";
import { formatNumber } from "../format/number";
import { CHANGE_WINDOWS, computeChange, type DailyValue, type MetricChange } from "./change";
import { DOMAIN_METRIC_KEYS, DOMAIN_METRICS, type DomainMetricDefinition } from "./metrics";

/**
 * What a rule watches. Conditions say "worse", not "drops": the direction comes from the metric, so
 * the same condition fires on a falling domain rating and on a rising (worsening) average position.
 * - worseBy: the change over the window, in the metric's unit (1 DR point, 3 positions).
 * - worseByPercent: the percent change over the window (−5 % referring domains, −20 % clicks).
 * - noDataFor: no value for `threshold` days up to the as-of day (the source stopped delivering).
 */
export const ALERT_CONDITIONS = ["worseBy", "worseByPercent", "noDataFor"] as const;
export type AlertCondition = (typeof ALERT_CONDITIONS)[number];

/** Longest silence a no-data rule may wait for: longer than the history kept for the 30-day toggle is meaningless. */
export const MAX_NO_DATA_DAYS = 60;

export const ALERT_RULE_MESSAGES = {
  id: "The rule id must be lowercase letters, digits and dashes.",
  metric: `The metric must be one of ${DOMAIN_METRIC_KEYS.join(", ")}.`,
  condition: "The condition must be worseBy, worseByPercent or noDataFor.",
  threshold: "The threshold must be a number above 0.",
  noDataDays: `The number of days without data must be a whole number from 1 to ${MAX_NO_DATA_DAYS}.`,
  window: "The window must be 7 or 30 days.",
  minBaseline: "The minimum baseline must be a number of 0 or more, or empty.",
  enabled: "Enabled must be true or false.",
} as const;

const ZRuleId = z.string({ error: ALERT_RULE_MESSAGES.id }).regex(/^[a-z0-9][a-z0-9-]{0,63}$/, ALERT_RULE_MESSAGES.id);
const ZWindow = z.union(
  CHANGE_WINDOWS.map((days) => z.literal(days)),
  { error: ALERT_RULE_MESSAGES.window },
);
const ZThreshold = z.number({ error: ALERT_RULE_MESSAGES.threshold }).positive(ALERT_RULE_MESSAGES.threshold);
const ZMinBaseline = z.number({ error: ALERT_RULE_MESSAGES.minBaseline }).min(0, ALERT_RULE_MESSAGES.minBaseline);

/**
 * One alert rule as stored and edited. `window` is not read by noDataFor rules; `minBaseline` is the
 * smallest baseline the rule judges, so a site going from 12 clicks to 8 does not open a "−33 %" alert.
 */
export const ZAlertRule = z
  .object({
    id: ZRuleId,
    metric: z.enum(DOMAIN_METRIC_KEYS, { error: ALERT_RULE_MESSAGES.metric }),
    condition: z.enum(ALERT_CONDITIONS, { error: ALERT_RULE_MESSAGES.condition }),
    threshold: ZThreshold,
    window: ZWindow,
    minBaseline: ZMinBaseline.nullable(),
    enabled: z.boolean({ error: ALERT_RULE_MESSAGES.enabled }),
  })
  .superRefine((rule, context) => {
    const wholeDays = Number.isInteger(rule.threshold) && rule.threshold <= MAX_NO_DATA_DAYS;
    if (rule.condition === "noDataFor" && !wholeDays) {
      context.addIssue({ code: "custom", path: ["threshold"], message: ALERT_RULE_MESSAGES.noDataDays });
    }
  });
export type TAlertRule = z.infer<typeof ZAlertRule>;

/** A group's change to one company rule, found by id: only the fields it sets replace the default's. */
export const ZAlertRuleOverride = z.object({
  id: ZRuleId,
  threshold: ZThreshold.optional(),
  window: ZWindow.optional(),
  minBaseline: ZMinBaseline.nullable().optional(),
  enabled: z.boolean({ error: ALERT_RULE_MESSAGES.enabled }).optional(),
});
export type TAlertRuleOverride = z.infer<typeof ZAlertRuleOverride>;

/** The rules a new company starts with (docs/decisions.md, "Mission Control alerts"), editable afterwards. */
export const DEFAULT_ALERT_RULES: readonly TAlertRule[] = [
  rule("domain-rating-drop", "domainRating", "worseBy", 1),
  rule("referring-domains-drop", "referringDomains", "worseByPercent", 5),
  // 100 a week: below it one good or bad day swings the percentage by more than the threshold.
  rule("clicks-drop", "clicks", "worseByPercent", 20, 100),
  rule("sessions-drop", "sessions", "worseByPercent", 20, 100),
  rule("average-position-worse", "averagePosition", "worseBy", 3),
  // Search Console's final data lags 2–3 days; 4 days of nothing means the source stopped, not lag.
  rule("clicks-no-data", "clicks", "noDataFor", 4),
  // Analytics data is final after about a day; 4 days of nothing means the property stopped or its
  // source needs reconnecting.
  rule("sessions-no-data", "sessions", "noDataFor", 4),
  rule("domain-rating-no-data", "domainRating", "noDataFor", 7),
];

function rule(
  id: string,
  metric: TAlertRule["metric"],
  condition: AlertCondition,
  threshold: number,
  minBaseline: number | null = null,
): TAlertRule {
  return { id, metric, condition, threshold, window: 7, minBaseline, enabled: true };
}

/**
 * The rules that apply to one group: the company's, each patched by the group's override with the
 * same id. An override of a rule the company no longer has is dropped rather than resurrecting it.
 */
export function effectiveRules(
  defaults: readonly TAlertRule[],
  overrides: readonly TAlertRuleOverride[],
): TAlertRule[] {
  const byId = new Map(overrides.map((override) => [override.id, override]));
  return defaults.map((base) => {
    const override = byId.get(base.id);
    if (!override) return base;
    const patch = Object.fromEntries(Object.entries(override).filter(([, value]) => value !== undefined));
    return { ...base, ...patch };
  });
}

export type AlertObservation =
  | ({ kind: "change" } & MetricChange)
  | { kind: "noData"; lastDay: string | null; daysWithoutData: number | null };

export interface RuleEvaluation {
  failing: boolean;
  /** The sentence the alert shows and the digest sends; null while the rule passes. */
  reason: string | null;
  observed: AlertObservation;
}

// The typographic minus reads as a sign rather than a dash in the alert text.
function signed(value: number, suffix = ""): string {
  const text = `${formatNumber(Math.abs(value))}${suffix}`;
  return value < 0 ? `−${text}` : value > 0 ? `+${text}` : text;
}

interface Judged {
  current: number;
  baseline: number;
  change: number;
  percentChange: number | null;
}

function changeReason(definition: DomainMetricDefinition, rule: TAlertRule, judged: Judged): string {
  const { current, baseline, change, percentChange } = judged;
  const verb = definition.lowerIsBetter ? "worsened" : change < 0 ? "fell" : "rose";
  const from = formatNumber(baseline, { format: definition.format });
  const to = formatNumber(current, { format: definition.format });
  const amount =
    definition.changeUnit === "positions"
      ? `${formatNumber(Math.abs(change))} ${Math.abs(change) === 1 ? "position" : "positions"}`
      : rule.condition === "worseByPercent" && percentChange !== null
        ? signed(percentChange, "%")
        : signed(change);
  const span =
    definition.kind === "flow"
      ? `in the last ${rule.window} days compared with the ${rule.window} days before`
      : `over ${rule.window} days`;
  return `${definition.label} ${verb} from ${from} to ${to} (${amount}) ${span}`;
}

function evaluateChange(rule: TAlertRule, series: readonly DailyValue[], asOf: string): RuleEvaluation {
  const definition = DOMAIN_METRICS[rule.metric];
  const change = computeChange(definition, series, asOf, rule.window);
  const observed: AlertObservation = { kind: "change", ...change };
  const { current, baseline, percentChange } = change;
  // No baseline (new domain, gap in the data) is not bad news; the no-data rules report missing data.
  if (current === null || baseline === null) return { failing: false, reason: null, observed };
  if (rule.minBaseline !== null && Math.abs(baseline) < rule.minBaseline) {
    return { failing: false, reason: null, observed };
  }
  const worse = definition.lowerIsBetter ? current - baseline : baseline - current;
  const amount =
    rule.condition === "worseByPercent" ? (baseline === 0 ? null : (worse / Math.abs(baseline)) * 100) : worse;
  // The epsilon keeps 54 → 53 from passing a "≥ 1 point" rule through floating-point noise.
  const failing = amount !== null && amount >= rule.threshold - 1e-9;
  const judged = { current, baseline, change: current - baseline, percentChange };
  return { failing, reason: failing ? changeReason(definition, rule, judged) : null, observed };
}

function evaluateNoData(rule: TAlertRule, series: readonly DailyValue[], asOf: string): RuleEvaluation {
  let lastDay: string | null = null;
  for (const point of series) {
    if (typeof point.value !== "number" || !Number.isFinite(point.value) || point.day > asOf) continue;
    if (lastDay === null || point.day > lastDay) lastDay = point.day;
  }
  // A metric that never had data is one no provider covers; the group page says what to connect instead.
  if (lastDay === null)
    return { failing: false, reason: null, observed: { kind: "noData", lastDay, daysWithoutData: null } };
  const daysWithoutData = daysBetween(lastDay, asOf);
  const failing = daysWithoutData >= rule.threshold;
  const label = DOMAIN_METRICS[rule.metric].label;
  const reason = failing
    ? `No ${label.toLowerCase()} data for ${daysWithoutData} days (last value on ${formatDisplayDate(lastDay)})`
    : null;
  return { failing, reason, observed: { kind: "noData", lastDay, daysWithoutData } };
}

/**
 * Judges one rule against one metric's daily series as of the provider's latest complete day. A
 * disabled rule always passes, so turning a rule off lets its open alert resolve normally.
 */
export function evaluateRule(rule: TAlertRule, series: readonly DailyValue[], asOf: string): RuleEvaluation {
  if (rule.condition === "noDataFor") {
    const evaluation = evaluateNoData(rule, series, asOf);
    return rule.enabled ? evaluation : { ...evaluation, failing: false, reason: null };
  }
  const evaluation = evaluateChange(rule, series, asOf);
  return rule.enabled ? evaluation : { ...evaluation, failing: false, reason: null };
}
