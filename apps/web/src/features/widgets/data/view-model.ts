import {
  formatChange,
  formatDisplayDate,
  formatNumber,
  notAvailableIn,
  notSetIn,
  numberFormatter,
  type TInteractiveWidget,
  type TMetricOption,
  type TOrderBy,
  type TTable,
  type TTableMetric,
} from "@app/core";

/** One metric column as a widget draws it, with its index in the table's values. */
export interface MetricColumn {
  index: number;
  metric: TTableMetric;
  option: TMetricOption | null;
}

/** A row of the current table with the matching row of the comparison period, if any. */
export interface ComparedRow {
  dimension: string | null;
  values: (number | null)[];
  previous: (number | null)[] | null;
}

/**
 * The metric options of a table column: columns are keyed '<prefix>.<metric>' and each instance keeps
 * its options by metric key (a full column key is accepted too).
 */
export function metricOptionFor(widget: TInteractiveWidget, columnKey: string): TMetricOption | null {
  const dot = columnKey.indexOf(".");
  const prefix = dot > 0 ? columnKey.slice(0, dot) : "";
  const metricKey = dot > 0 ? columnKey.slice(dot + 1) : columnKey;
  const instance = widget.instances.find((candidate) => candidate.prefix === prefix) ?? widget.instances[0];
  return instance?.metricsOptions[metricKey] ?? instance?.metricsOptions[columnKey] ?? null;
}

/** Metric columns the widget shows (a cloaked metric is hidden). */
export function visibleMetrics(table: TTable, widget: TInteractiveWidget): MetricColumn[] {
  return table.metrics
    .map((metric, index) => ({ index, metric, option: metricOptionFor(widget, metric.key) }))
    .filter((column) => !column.option?.cloaked);
}

// A share of a rate (bounce rate, CTR) means nothing, so only additive columns become shares.
function isAdditive(metric: TTableMetric): boolean {
  return metric.format !== "percent";
}

/**
 * The widget's 'percent' option: additive metric columns shown as each row's share of the column
 * total, in percent. Totals become 100 (or N/A without a total).
 */
export function asShareOfTotal(table: TTable): TTable {
  const shares = table.metrics.map(isAdditive);
  const totals = table.totals;
  const share = (value: number | null, index: number) => {
    const total = totals[index];
    if (!shares[index]) return value;
    if (value === null || total === null || total === 0) return null;
    return (value / total) * 100;
  };
  return {
    ...table,
    metrics: table.metrics.map((metric, index) =>
      shares[index] ? { ...metric, format: "percent" as const, currency: null } : metric,
    ),
    rows: table.rows.map((row) => ({ ...row, values: row.values.map(share) })),
    totals: totals.map((total, index) => (shares[index] ? (total === null || total === 0 ? null : 100) : total)),
  };
}

/** Pairs every current row with the previous period's row: by position for dates, by value otherwise. */
export function compareRows(current: TTable, previous: TTable | null): ComparedRow[] {
  if (!previous) return current.rows.map((row) => ({ ...row, previous: null }));
  const byDate = current.dimension?.kind === "date";
  const lookup = new Map(previous.rows.map((row) => [row.dimension ?? "", row.values]));
  return current.rows.map((row, index) => ({
    ...row,
    previous: byDate ? (previous.rows[index]?.values ?? null) : (lookup.get(row.dimension ?? "") ?? null),
  }));
}

/** Rows ordered by a resolved orderBy ('dimension' or a metric key); N/A values always sink. */
export function sortRows(rows: ComparedRow[], orderBy: TOrderBy, table: TTable): ComparedRow[] {
  const direction = orderBy.dir === "desc" ? -1 : 1;
  if (orderBy.column === "dimension") {
    const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });
    return [...rows].sort((a, b) => direction * collator.compare(a.dimension ?? "", b.dimension ?? ""));
  }
  const index = table.metrics.findIndex((metric) => metric.key === orderBy.column);
  if (index < 0) return rows;
  return [...rows].sort((a, b) => {
    const left = a.values[index];
    const right = b.values[index];
    if (left === null || !Number.isFinite(left)) return right === null || !Number.isFinite(right) ? 0 : 1;
    if (right === null || !Number.isFinite(right)) return -1;
    return direction * (left - right);
  });
}

/** A metric value as text (docs/product.md §9 numbers; 'N/A' when not finite). */
export function formatMetric(value: number | null | undefined, metric: TTableMetric, locale = "en-US"): string {
  return formatNumber(value, { format: metric.format, currency: metric.currency ?? null, locale });
}

/** Compact axis text: 12.3K, $1.2M, 45%. */
export function formatAxisValue(value: number, metric: TTableMetric | undefined, locale = "en-US"): string {
  if (metric?.format === "time") return formatNumber(value, { format: "time", locale });
  const compact = numberFormatter(locale, { notation: "compact", maximumFractionDigits: 1 });
  if (metric?.format === "percent") {
    // English keeps the product's '45%' (as formatNumber does); other languages space and sign it their
    // way, as their value labels and tooltips already read ('45 %' in German, French, Slovenian). Not
    // compact: ICU's compact percent spaces with a plain space where the value's own label has a
    // no-break one, and a percent axis seldom runs into the thousands.
    return locale === "en-US"
      ? `${compact.format(value)}%`
      : numberFormatter(locale, { style: "percent", maximumFractionDigits: 1 }).format(value / 100);
  }
  if (metric?.format === "money") {
    try {
      return numberFormatter(locale, {
        style: "currency",
        currency: (metric.currency || "USD").toUpperCase(),
        notation: "compact",
        maximumFractionDigits: 1,
      }).format(value);
    } catch {
      return compact.format(value);
    }
  }
  return compact.format(value);
}

const shortDays = new Map<string, Intl.DateTimeFormat>();
/** A day on an axis, per locale ('Jan 05', '05. Jan.'), kept. */
function shortDay(locale: string): Intl.DateTimeFormat {
  let formatter = shortDays.get(locale);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { month: "short", day: "2-digit", timeZone: "UTC" });
    shortDays.set(locale, formatter);
  }
  return formatter;
}

/** A dimension value as text: days as 'Jan 05' on axes or 'Jan 05, 2026' in tables, in the locale. */
export function formatDimension(value: string | null, table: TTable, long = false, locale = "en-US"): string {
  if (value === null || value === "") return notSetIn(locale);
  if (table.dimension?.kind !== "date") return value;
  if (long) return formatDisplayDate(value, locale) || value;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? value : shortDay(locale).format(date);
}

/** Change in percent from the previous value, or null when it has no meaning. */
export function changeOf(current: number | null | undefined, previous: number | null | undefined): number | null {
  return formatChange(current, previous);
}

/** '+12.3%' / '-4%' / 'N/A' (in the locale's language: format/words.ts). */
export function formatChangeText(change: number | null, locale = "en-US"): string {
  if (change === null || !Number.isFinite(change)) return notAvailableIn(locale);
  const text = formatNumber(Math.abs(change), { format: "percent", locale });
  if (Math.abs(change) < 0.005) return text;
  return `${change > 0 ? "+" : "-"}${text}`;
}

/** True when the table has nothing to show. */
export function isEmptyTable(table: TTable): boolean {
  if (table.metrics.length === 0) return true;
  if (table.dimension) return table.rows.length === 0;
  return table.totals.every((total) => total === null);
}
