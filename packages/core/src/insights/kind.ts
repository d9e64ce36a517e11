import type { TTableMetric } from "../contract/dashboards";
import type { NumberFormat } from "../format/number";
import type { Aggregation } from "../widgets/calculated";

/**
 * Whether a metric column adds up across dimension values ('sum': sessions, clicks, cost) or is an
 * average or a ratio ('average': bounce rate, CTR, cost per click, average position, session duration).
 * Only a 'sum' metric can say which dimension values "contributed" to its change: the parts of an
 * average do not add up to the whole.
 */
export type MetricAggregation = Aggregation;

// Names that mark a mean or a ratio whatever the column's format: averages, rates, "per" measures,
// positions and the usual advertising ratios. Checked on the label and the key, as providers spell them.
const NON_ADDITIVE_NAME = [
  /\bav(?:g|erage)\b/i,
  /\bmean\b/i,
  /\bmedian\b/i,
  /\brate\b/i,
  /\bratio\b/i,
  /\bper\b/i,
  /\bshare\b/i,
  /\bpos(?:ition)?\b/i,
  /\bduration\b/i,
  /\b(?:ctr|cpc|cpm|cpa|cpl|cpv|roas|roi|aov|arpu)\b/i,
  /%/,
];

/**
 * How a table column aggregates, from what the table says about it. The contract has no aggregation
 * field, so the column's format decides first: a percent is a ratio and a time is a duration (providers'
 * durations are averages: session duration, time on page); otherwise its name does. `declared` (a
 * calculated metric's type, a connector's metadata) always wins over the guess.
 */
export function metricAggregation(
  metric: Pick<TTableMetric, "key" | "label" | "format">,
  declared?: MetricAggregation,
): MetricAggregation {
  if (declared) return declared;
  if (metric.format === "percent" || metric.format === "time") return "average";
  const names = [metric.label, metric.key.replace(/^[^.]*\./, "")].map((name) => name.replace(/[_.]/g, " "));
  return names.some((name) => NON_ADDITIVE_NAME.some((pattern) => pattern.test(name))) ? "average" : "sum";
}

/** What makes a change worth a sentence; every field has a default (INSIGHT_DEFAULTS). */
export interface InsightThresholds {
  /**
   * Smallest change worth saying per kind of metric (how it aggregates, then its format), in the
   * column's own unit (percent points for 'percent', seconds for 'time'): 3 → 7 conversions is +133 %
   * and still nothing to report, while a cost per click moving 30 cents is.
   */
  minAbsolute: Record<MetricAggregation, Record<NumberFormat, number>>;
  /** Smallest change, in percent, when the metric has too little daily history for a band. */
  fallbackPercent: number;
  /** Most named contributors in a sentence; the rest is "other". */
  maxContributors: number;
  /** A dimension value is named only when its delta is at least this share of the metric's change. */
  minContributorShare: number;
}

export const INSIGHT_DEFAULTS: InsightThresholds = {
  minAbsolute: {
    sum: { number: 10, money: 10, percent: 0.5, time: 60 },
    average: { number: 0.1, money: 0.05, percent: 0.5, time: 5 },
  },
  fallbackPercent: 10,
  maxContributors: 3,
  minContributorShare: 0.1,
};

/** Thresholds with only some minimums given. */
export type InsightThresholdOverrides = Partial<Omit<InsightThresholds, "minAbsolute">> & {
  minAbsolute?: { [kind in MetricAggregation]?: Partial<Record<NumberFormat, number>> };
};

/** The defaults overlaid with `overrides`, minimums merged per kind and format. */
export function insightThresholds(overrides: InsightThresholdOverrides = {}): InsightThresholds {
  const given = overrides.minAbsolute ?? {};
  return {
    ...INSIGHT_DEFAULTS,
    ...overrides,
    minAbsolute: {
      sum: { ...INSIGHT_DEFAULTS.minAbsolute.sum, ...given.sum },
      average: { ...INSIGHT_DEFAULTS.minAbsolute.average, ...given.average },
    },
  };
}
