import type { TTableMetric } from "../contract/dashboards";
import { formatNumber } from "../format/number";
import type { Contribution } from "./contribution";
import type { MetricAggregation } from "./kind";

// The typographic minus, as in the product's prose ("Paid Search −900"); formatNumber gets the absolute
// value so the digits, currency and rounding are exactly the widget's.
const MINUS = "−";

type MetricDisplay = Pick<TTableMetric, "format" | "currency">;

/** A value exactly as the widget shows it (its format and currency). */
export function formatInsightValue(value: number, metric: MetricDisplay): string {
  return formatNumber(value, { format: metric.format, currency: metric.currency ?? null });
}

/** A change with its sign: '+6,210', '−$900.00', '+1m 5s'. */
export function formatSignedAmount(delta: number, metric: MetricDisplay): string {
  return `${delta < 0 ? MINUS : "+"}${formatInsightValue(Math.abs(delta), metric)}`;
}

/** The percent change as the widget's change figure prints it, without its sign ('12.35%'). */
export function formatPercentSize(percentChange: number): string {
  return formatNumber(Math.abs(percentChange), { format: "percent" });
}

/**
 * The verb of a movement. A lower-is-better metric that falls "improved" and one that rises "worsened",
 * because "Cost per click down" leaves the reader to work out whether that is good.
 */
export function movementVerb(delta: number, lowerIsBetter: boolean): string {
  if (lowerIsBetter) return delta < 0 ? "improved" : "worsened";
  return delta < 0 ? "down" : "up";
}

export interface SentenceInput {
  metric: Pick<TTableMetric, "label" | "format" | "currency" | "lowerIsBetter">;
  aggregation: MetricAggregation;
  current: number;
  previous: number;
  delta: number;
  percentChange: number | null;
  /** 'vs Oct 1 – Oct 30', from comparisonLabel. */
  comparison: string;
  contribution: Contribution | null;
  /** Below this the tail ("other") is not worth a mention. */
  minAbsolute: number;
}

/**
 * One statement about one metric: "Sessions up 12.35% (+6,210) vs Oct 1 – Oct 30; Organic Search
 * contributed +5,100, Paid Search −900." A sum shows its change as a signed amount; an average or a
 * ratio shows where it went from and to, since "+0.5%" of a rate reads as either points or percent.
 * Only sums name contributors.
 */
export function insightSentence(input: SentenceInput): string {
  const { metric } = input;
  const verb = movementVerb(input.delta, metric.lowerIsBetter ?? false);
  const fromTo = `from ${formatInsightValue(input.previous, metric)} to ${formatInsightValue(input.current, metric)}`;
  const detail = input.aggregation === "sum" ? formatSignedAmount(input.delta, metric) : fromTo;
  // From zero there is no percent (the widget shows N/A), so the sentence says where it went instead.
  const movement =
    input.percentChange === null
      ? `${metric.label} ${verb} ${fromTo}`
      : `${metric.label} ${verb} ${formatPercentSize(input.percentChange)} (${detail})`;
  const parts = [`${movement} ${input.comparison}`];
  const contributors = input.aggregation === "sum" ? (input.contribution?.contributors ?? []) : [];
  if (contributors.length > 0) {
    const named = contributors.map((entry, index) => {
      const amount = formatSignedAmount(entry.delta, metric);
      return index === 0 ? `${entry.dimension} contributed ${amount}` : `${entry.dimension} ${amount}`;
    });
    const other = input.contribution?.other ?? 0;
    if (Math.abs(other) >= input.minAbsolute) named.push(`other ${formatSignedAmount(other, metric)}`);
    parts.push(named.join(", "));
  }
  return `${parts.join("; ")}.`;
}
