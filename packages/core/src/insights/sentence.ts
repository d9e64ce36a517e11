import type { TTableMetric } from "../contract/dashboards";
import { formatNumber } from "../format/number";
import type { Translator } from "../i18n/translator";
import type { Contribution } from "./contribution";
import { ENGLISH_INSIGHTS } from "./english";
import type { MetricAggregation } from "./kind";

// The typographic minus, as in the product's prose ("Paid Search −900"); formatNumber gets the absolute
// value so the digits, currency and rounding are exactly the widget's.
const MINUS = "−";

type MetricDisplay = Pick<TTableMetric, "format" | "currency">;

/** A value exactly as the widget shows it (its format and currency) in `locale` (the dashboard's; US English by default). */
export function formatInsightValue(value: number, metric: MetricDisplay, locale?: string): string {
  return formatNumber(value, { format: metric.format, currency: metric.currency ?? null, locale });
}

/** A change with its sign: '+6,210', '−$900.00', '+1m 5s'. */
export function formatSignedAmount(delta: number, metric: MetricDisplay, locale?: string): string {
  return `${delta < 0 ? MINUS : "+"}${formatInsightValue(Math.abs(delta), metric, locale)}`;
}

/** The percent change as the widget's change figure prints it, without its sign ('12.35%'). */
export function formatPercentSize(percentChange: number, locale?: string): string {
  return formatNumber(Math.abs(percentChange), { format: "percent", locale });
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
  /** 'vs Oct 1 – Oct 30', from comparisonLabel, in the sentence's language. */
  comparison: string;
  contribution: Contribution | null;
  /** Below this the tail ("other") is not worth a mention. */
  minAbsolute: number;
}

/** A sentence ending in an abbreviated month ("30. Okt.") has one full stop, not two. */
function oneFullStop(sentence: string): string {
  return sentence.replace(/\.\.(\]?)$/, ".$1");
}

/**
 * One statement about one metric: "Sessions up 12.35% (+6,210) vs Oct 1 – Oct 30; Organic Search
 * contributed +5,100, Paid Search −900." A sum shows its change as a signed amount; an average or a
 * ratio shows where it went from and to, since "+0.5%" of a rate reads as either points or percent.
 * Only sums name contributors. Said in the translator's language (docs/decisions.md, "Insights
 * sentences from ICU templates"): each part is one message of the catalogue, whose translations may
 * reorder it ("Sitzungen um 12,4% gestiegen"), with numbers in its locale; the metric's label is given
 * already translated, and dimension values are the data's own.
 */
export function insightSentence(input: SentenceInput, translator: Translator = ENGLISH_INSIGHTS): string {
  const { metric } = input;
  const { t, locale } = translator;
  const verb = movementVerb(input.delta, metric.lowerIsBetter ?? false);
  const from = formatInsightValue(input.previous, metric, locale);
  const to = formatInsightValue(input.current, metric, locale);
  const detail =
    input.aggregation === "sum"
      ? formatSignedAmount(input.delta, metric, locale)
      : t("insights.detailFromTo", { from, to });
  // From zero there is no percent (the widget shows N/A), so the sentence says where it went instead.
  const movement =
    input.percentChange === null
      ? t("insights.fromTo", { metric: metric.label, verb, from, to })
      : t("insights.byPercent", {
          metric: metric.label,
          verb,
          percent: formatPercentSize(input.percentChange, locale),
          detail,
        });
  const contributors = input.aggregation === "sum" ? (input.contribution?.contributors ?? []) : [];
  if (contributors.length === 0) return oneFullStop(t("insights.sentence", { movement, comparison: input.comparison }));
  const named = contributors.map((entry, index) => {
    const amount = formatSignedAmount(entry.delta, metric, locale);
    return t(index === 0 ? "insights.firstContributor" : "insights.contributor", { name: entry.dimension, amount });
  });
  const other = input.contribution?.other ?? 0;
  if (Math.abs(other) >= input.minAbsolute) {
    named.push(t("insights.other", { amount: formatSignedAmount(other, metric, locale) }));
  }
  return oneFullStop(
    t("insights.sentenceWithContributors", { movement, comparison: input.comparison, contributors: named.join(", ") }),
  );
}
