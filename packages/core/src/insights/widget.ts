import type { TInteractiveWidget, TTable, TWidgetData } from "../contract/dashboards";
import { isValidDay } from "../dates/day";
import { comparisonLabel } from "../dates/display";
import type { DayRange } from "../dates/ranges";
import { type ChangeTone, changeTone } from "../format/change-tone";
import { DEFAULT_CURRENCY } from "../format/number";
import { type LabelCatalogue, translateLabel } from "../i18n/label-text";
import type { Translator } from "../i18n/translator";
import type { DailyValue } from "../mission-control/change";
import { calculatedMetricDisplay } from "../widgets/calculated";
import { type Contribution, contributionAnalysis } from "./contribution";
import { ENGLISH_INSIGHTS } from "./english";
import { type InsightThresholdOverrides, insightThresholds, type MetricAggregation, metricAggregation } from "./kind";
import { rangeSettled } from "./lag";
import { type ChangeContext, judgeChange } from "./notability";
import { insightSentence } from "./sentence";

/** What the insights of one widget are computed from: exactly what the widget shows, and its dates. */
export interface InsightWidget {
  widgetId: string;
  /** Position on the dashboard; breaks ties so the same dashboard always reads the same. */
  order: number;
  data: TWidgetData;
  range: DayRange;
  /** The comparison range actually used (effectiveCompareRange); null when the widget compares nothing. */
  comparison: DayRange | null;
  /** Column keys the widget does not show or whose change it hides: never spoken of (see insightWidgetSettings). */
  silentMetrics?: readonly string[];
  /** Declared aggregation per column key; otherwise metricAggregation guesses (see insightWidgetSettings). */
  aggregations?: Readonly<Record<string, MetricAggregation>>;
  /**
   * Daily values per column key for the band, from several weeks (at least 4, best 8) before the range
   * to its end, in the unit of the total. A widget whose dimension is the date needs none: its rows are
   * its days and the comparison's rows their history (enough from ranges of about a month).
   */
  series?: Readonly<Record<string, readonly DailyValue[]>>;
  /**
   * For a widget without a (non-date) dimension: the same query by the connector's most informative
   * dimension, both periods, columns keyed as the widget's. Its rows name the contributors of additive
   * metrics; the numbers said stay the widget's own totals.
   */
  breakdown?: TWidgetData;
  /** Days before today its connector keeps filling in (see rangeSettled); 0 or absent: none. */
  lagDays?: number;
  /** Metric names its owner typed (calculated metrics): said as typed in every language (see insightWidgetSettings). */
  typedLabels?: readonly string[];
}

export interface InsightOptions {
  thresholds?: InsightThresholdOverrides;
  /** The viewer's year, so comparison labels in it omit the year (comparisonLabel). */
  currentYear?: number;
  /** Mission Control's anomaly band options; its defaults otherwise. */
  anomaly?: ChangeContext["anomaly"];
  /** The viewer's today (the dashboard's zone), for a lagging connector's last final day (rangeSettled). */
  today?: string;
  /**
   * The dashboard's language: its translator (i18n/catalogues.ts translatorFor) for the sentences, numbers
   * and dates, and its label catalogue (i18n/labels.ts labelCatalogue) for the metrics' labels; English
   * when absent.
   */
  translator?: Translator;
  labels?: LabelCatalogue | null;
}

/** One notable movement of one metric of one widget, with the sentence that says it. */
export interface Insight {
  widgetId: string;
  order: number;
  metricKey: string;
  /** The metric's label in the sentence's language (a typed name as typed). */
  metricLabel: string;
  /** Column position in the widget's table (a tie-break after order). */
  metricIndex: number;
  /** Currency of a money metric (USD when the column names none, as it is shown), so two metrics in different currencies are never taken as one. */
  currency: string | null;
  aggregation: MetricAggregation;
  direction: "up" | "down";
  /** 'good' or 'bad' as the widget colours the change (lower-is-better aware). */
  tone: ChangeTone;
  current: number;
  previous: number;
  delta: number;
  percentChange: number | null;
  unusualness: number;
  basis: "band" | "fixed";
  /** Only for sum metrics of a widget with a (non-date) dimension, or with a breakdown (InsightWidget.breakdown). */
  contribution: Contribution | null;
  sentence: string;
}

function finite(value: number | null | undefined): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** A date-dimension table's own days as a series of column `index`. */
function rowsAsSeries(table: TTable, index: number): DailyValue[] {
  if (table.dimension?.kind !== "date") return [];
  return table.rows
    .filter((row) => isValidDay(row.dimension))
    .map((row) => ({ day: row.dimension as string, value: row.values[index] ?? null }));
}

/** The tables whose rows explain the widget's change: its own when it has a dimension, else its breakdown's. */
function contributionTables(widget: InsightWidget): TWidgetData | null {
  const { current } = widget.data;
  if (current.dimension && current.dimension.kind !== "date") return widget.data;
  return widget.breakdown?.previous ? widget.breakdown : null;
}

/**
 * The notable movements of one widget, at most one per metric column, most unusual first. Nothing when
 * the widget has no comparison, a value is missing in either period, or no change clears the thresholds.
 */
export function widgetInsights(widget: InsightWidget, options: InsightOptions = {}): Insight[] {
  const { current, previous } = widget.data;
  if (!previous || !widget.comparison) return [];
  // A range a lagging provider is still filling in: its totals are not final, so nothing is said.
  if (options.today && !rangeSettled(widget.range, widget.comparison, widget.lagDays ?? 0, options.today)) return [];
  const parts = contributionTables(widget);
  const thresholds = insightThresholds(options.thresholds);
  const translator = options.translator ?? ENGLISH_INSIGHTS;
  const labels = options.labels ?? null;
  const typed = new Set(widget.typedLabels ?? []);
  const label = comparisonLabel(
    widget.comparison.startDate,
    widget.comparison.endDate,
    options.currentYear,
    options.translator,
  );
  const silent = new Set(widget.silentMetrics ?? []);
  const insights: Insight[] = [];
  current.metrics.forEach((metric, index) => {
    const previousIndex = previous.metrics.findIndex((candidate) => candidate.key === metric.key);
    const now = current.totals[index];
    const before = previousIndex < 0 ? null : previous.totals[previousIndex];
    if (silent.has(metric.key) || !finite(now) || !finite(before)) return;
    const aggregation = metricAggregation(metric, widget.aggregations?.[metric.key]);
    const minAbsolute = thresholds.minAbsolute[aggregation][metric.format];
    const ownSeries =
      current.dimension?.kind === "date"
        ? [...rowsAsSeries(previous, previousIndex), ...rowsAsSeries(current, index)]
        : undefined;
    const verdict = judgeChange(
      { current: now, previous: before },
      {
        range: widget.range,
        series: widget.series?.[metric.key] ?? ownSeries,
        anomaly: options.anomaly,
        minAbsolute,
        fallbackPercent: thresholds.fallbackPercent,
      },
    );
    if (!verdict.notable) return;
    // Judged on the declared (English) label, which metricAggregation reads; said in the dashboard's language.
    const metricLabel = typed.has(metric.label) ? metric.label : translateLabel(metric.label, labels);
    // Paired by column key: a breakdown's columns are the widget's, in the breakdown's own order.
    const indexes = parts?.previous && {
      current: parts.current.metrics.findIndex((candidate) => candidate.key === metric.key),
      previous: parts.previous.metrics.findIndex((candidate) => candidate.key === metric.key),
    };
    const contribution =
      aggregation === "sum" && parts?.previous && indexes && indexes.current >= 0 && indexes.previous >= 0
        ? contributionAnalysis(parts.current, parts.previous, indexes, verdict.delta, {
            maxContributors: thresholds.maxContributors,
            minAbsolute,
            minShare: thresholds.minContributorShare,
          })
        : null;
    insights.push({
      widgetId: widget.widgetId,
      order: widget.order,
      metricKey: metric.key,
      metricLabel,
      metricIndex: index,
      currency: metric.format === "money" ? (metric.currency || DEFAULT_CURRENCY).toUpperCase() : null,
      aggregation,
      direction: verdict.delta < 0 ? "down" : "up",
      tone: changeTone(verdict.delta, metric.lowerIsBetter ?? false),
      current: now,
      previous: before,
      delta: verdict.delta,
      percentChange: verdict.percentChange,
      unusualness: verdict.unusualness,
      basis: verdict.basis,
      contribution,
      sentence: insightSentence(
        {
          metric: { ...metric, label: metricLabel },
          aggregation,
          current: now,
          previous: before,
          delta: verdict.delta,
          percentChange: verdict.percentChange,
          comparison: label,
          contribution,
          minAbsolute,
        },
        translator,
      ),
    });
  });
  return insights.sort((a, b) => b.unusualness - a.unusualness || a.metricIndex - b.metricIndex);
}

/**
 * What a saved widget's settings mean for its insights, given the columns of its table: a hidden
 * change, a cloaked metric or a share-of-total view ('percent', which shows shares, not the values)
 * silence a metric; a calculated metric declares its aggregation by its type. Columns are keyed
 * '<prefix>.<metric>', options by metric key.
 */
export function insightWidgetSettings(
  widget: TInteractiveWidget,
  table: Pick<TTable, "metrics">,
): Pick<InsightWidget, "silentMetrics" | "aggregations" | "typedLabels"> {
  const silentMetrics: string[] = [];
  const aggregations: Record<string, MetricAggregation> = {};
  for (const { key } of table.metrics) {
    const dot = key.indexOf(".");
    const prefix = dot > 0 ? key.slice(0, dot) : "";
    const metricKey = dot > 0 ? key.slice(dot + 1) : key;
    const instance = widget.instances.find((candidate) => candidate.prefix === prefix) ?? widget.instances[0];
    const option = instance?.metricsOptions[metricKey] ?? instance?.metricsOptions[key];
    if (widget.hiddenChange || widget.percent || option?.cloaked || option?.cloakedChange) silentMetrics.push(key);
    const calculated = instance?.inputs.calculatedMetrics?.find((metric) => metric.id === metricKey);
    if (calculated) aggregations[key] = calculatedMetricDisplay(calculated.type).aggregation;
  }
  const typedLabels = widget.instances.flatMap((instance) =>
    (instance.inputs.calculatedMetrics ?? []).map((metric) => metric.name),
  );
  return { silentMetrics, aggregations, typedLabels };
}
