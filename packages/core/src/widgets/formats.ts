import type { TFormatOptions } from "../contract/dashboards";

/** Display formats of interactive widgets (docs/product.md §3 table). */
export const WIDGET_FORMATS = [
  "chart:line",
  "chart:area",
  "chart:bar",
  "chart:pie",
  "chart:radar",
  "chart:gauge",
  "table",
  "summary",
] as const;
export type WidgetFormat = (typeof WIDGET_FORMATS)[number];

/** Labels for the format dropdown. */
export const WIDGET_FORMAT_LABELS: Record<WidgetFormat, string> = {
  "chart:line": "Line Chart",
  "chart:area": "Area Chart",
  "chart:bar": "Bar Chart",
  "chart:pie": "Pie Chart",
  "chart:radar": "Radar Chart",
  "chart:gauge": "Gauge",
  table: "Table",
  summary: "Summary",
};

/** The only format of passive widgets (docs/product.md §3, §9). */
export const PASSIVE_FORMATS = ["textCard"] as const;
export type PassiveFormat = (typeof PASSIVE_FORMATS)[number];

/**
 * The chart sub-formats of docs/product.md §3 ("chart (sub-formats line, area, bar)"). These are the only
 * formats that can be mixed per metric inside one chart, so they are the sub-format family.
 */
export const CHART_SERIES_FORMATS = [
  "chart:line",
  "chart:area",
  "chart:bar",
] as const satisfies readonly WidgetFormat[];

const SERIES_DEFAULTS: TFormatOptions = { visibleGrid: true };

/** Default options per format (docs/product.md §3 table, §9 defaults). */
export const DEFAULT_FORMAT_OPTIONS: Record<WidgetFormat, TFormatOptions> = {
  "chart:line": SERIES_DEFAULTS,
  "chart:area": SERIES_DEFAULTS,
  "chart:bar": SERIES_DEFAULTS,
  "chart:pie": { doughnut: false },
  "chart:radar": { visibleLabels: false },
  "chart:gauge": { minValue: 0, maxValue: 100 },
  table: {},
  summary: {},
};

/** True when `value` is one of WIDGET_FORMATS. */
export function isWidgetFormat(value: unknown): value is WidgetFormat {
  return typeof value === "string" && (WIDGET_FORMATS as readonly string[]).includes(value);
}

/** 'chart:line' → 'chart'; 'table' → 'table'. */
export function formatFamily(format: string): string {
  return format.split(":")[0];
}

/**
 * docs/product.md §5: a metric's own format must be a sub-format of the widget's display format. Rule:
 * only line/area/bar charts have sub-formats, and each of them accepts any of line/area/bar per
 * metric (a bar series in a line chart). Pie, radar, gauge, table and summary accept none.
 */
export function isSubFormat(metricFormat: string, widgetFormat: string): boolean {
  const series: readonly string[] = CHART_SERIES_FORMATS;
  return series.includes(widgetFormat) && series.includes(metricFormat);
}

/**
 * The options a widget of `format` is saved with: the format's defaults overlaid with the given
 * values of the right type, and options of other formats dropped (a pie's doughnut flag does not
 * survive a switch to a gauge).
 */
export function formatOptionsFor(format: WidgetFormat, given: TFormatOptions = {}): TFormatOptions {
  const defaults = DEFAULT_FORMAT_OPTIONS[format];
  const result: TFormatOptions = {};
  for (const key of Object.keys(defaults) as Array<keyof TFormatOptions>) {
    const value = given[key];
    const fallback = defaults[key];
    const sameType = typeof value === typeof fallback && (typeof value !== "number" || Number.isFinite(value));
    Object.assign(result, { [key]: sameType ? value : fallback });
  }
  return result;
}
