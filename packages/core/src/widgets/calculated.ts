import type { TTable } from "../contract/dashboards";
import type { NumberFormat } from "../format/number";
import { SECONDS_PER_UNIT, TIME_UNITS, type TimeUnit } from "../format/time";
import { evaluateNode, parseExpression } from "./expression";

/**
 * Calculated metric types of docs/product.md §3. The time types carry their unit in the type itself
 * ('numeric:time:minutes'), because the entity has no separate unit field (id, name, type, expression).
 */
export const CALCULATED_METRIC_TYPES = [
  "numeric",
  "numeric:money",
  "numeric:percent",
  "average",
  "average:money",
  "average:percent",
  ...TIME_UNITS.map((unit) => `numeric:time:${unit}` as const),
  ...TIME_UNITS.map((unit) => `average:time:${unit}` as const),
] as const;
export type CalculatedMetricType = (typeof CALCULATED_METRIC_TYPES)[number];

export type Aggregation = "sum" | "average";

export interface CalculatedMetricDisplay {
  format: NumberFormat;
  aggregation: Aggregation;
  /** For time types: the unit the expression yields and the factor that turns it into seconds. */
  timeUnit?: TimeUnit;
  secondsPerUnit?: number;
}

/** True when `value` is one of CALCULATED_METRIC_TYPES. */
export function isCalculatedMetricType(value: unknown): value is CalculatedMetricType {
  return typeof value === "string" && (CALCULATED_METRIC_TYPES as readonly string[]).includes(value);
}

/** How a calculated metric type is shown and totalled: 'average:time:minutes' → time, mean, ×60 to seconds. */
export function calculatedMetricDisplay(type: CalculatedMetricType): CalculatedMetricDisplay {
  const [aggregate, kind, unit] = type.split(":");
  const aggregation: Aggregation = aggregate === "average" ? "average" : "sum";
  if (kind === "time") {
    const timeUnit = unit as TimeUnit;
    return { format: "time", aggregation, timeUnit, secondsPerUnit: SECONDS_PER_UNIT[timeUnit] };
  }
  const format: NumberFormat = kind === "money" ? "money" : kind === "percent" ? "percent" : "number";
  return { format, aggregation };
}

/**
 * Total of a calculated metric's rows (docs/product.md §3): the mean for 'average' types, the sum for 'numeric'
 * ones. Rows that are not finite (a division by zero shown as N/A) are left out rather than turning
 * the whole total into N/A; with no finite rows the total is NaN.
 */
export function aggregate(type: CalculatedMetricType, values: readonly (number | null)[]): number {
  const finite = values.filter((value): value is number => typeof value === "number" && Number.isFinite(value));
  if (finite.length === 0) return Number.NaN;
  const sum = finite.reduce((total, value) => total + value, 0);
  return calculatedMetricDisplay(type).aggregation === "average" ? sum / finite.length : sum;
}

export interface CalculatedMetricDefinition {
  id: string;
  name: string;
  type: CalculatedMetricType;
  expression: string;
}

function rowValues(table: TTable, values: readonly (number | null)[]): Record<string, number> {
  const byName: Record<string, number> = {};
  // Labels first so a metric key always wins over a label that happens to be spelt the same.
  for (const field of ["label", "key"] as const) {
    table.metrics.forEach((metric, index) => {
      byName[metric[field]] = values[index] ?? Number.NaN;
    });
  }
  return byName;
}

/** Table cells carry null where a number cannot be shown, since NaN does not survive JSON. */
function toCell(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/**
 * Appends calculated metrics as columns of `table`. Expressions name metrics by key or by label
 * (in braces when the label has spaces), including calculated metrics listed before them. Each row is evaluated on its own values; the total is the
 * type's aggregate of the rows, or the expression over the table's totals when there are no rows.
 * Time results are converted to seconds, the unit every 'time' column holds.
 */
export function applyCalculatedMetrics(table: TTable, metrics: readonly CalculatedMetricDefinition[]): TTable {
  let result = table;
  for (const metric of metrics) {
    const parsed = parseExpression(metric.expression);
    const display = calculatedMetricDisplay(metric.type);
    const toColumnUnit = display.secondsPerUnit ?? 1;
    const evaluate = (values: readonly (number | null)[]) =>
      parsed.ok ? evaluateNode(parsed.ast, rowValues(result, values)) * toColumnUnit : Number.NaN;
    const rowResults = result.rows.map((row) => evaluate(row.values));
    const total = result.rows.length > 0 ? aggregate(metric.type, rowResults) : evaluate(result.totals);
    result = {
      ...result,
      metrics: [...result.metrics, { key: metric.id, label: metric.name, format: display.format }],
      rows: result.rows.map((row, index) => ({ ...row, values: [...row.values, toCell(rowResults[index])] })),
      totals: [...result.totals, toCell(total)],
    };
  }
  return result;
}

/** A metric a type offers: its key (`value`) and the label expressions may name it by. */
export interface MetricChoice {
  value: string;
  label: string;
}

/**
 * The metric keys a query must fetch for a widget instance (docs/product.md §5: metrics are not needed when
 * calculated metrics exist). Expressions name metrics by key or label; every named metric the type
 * offers is fetched even when not chosen, and comes back in `extra` so the caller can drop its column
 * once the calculated metrics are evaluated. Names of calculated metrics and unknown names fetch nothing.
 */
export function metricsToFetch(
  chosen: readonly string[],
  calculated: readonly CalculatedMetricDefinition[],
  offered: readonly MetricChoice[],
): { fetch: string[]; extra: string[] } {
  const ownNames = new Set(calculated.flatMap((metric) => [metric.id, metric.name]));
  const extra: string[] = [];
  for (const metric of calculated) {
    const parsed = parseExpression(metric.expression);
    if (!parsed.ok) continue;
    for (const name of parsed.metrics) {
      if (ownNames.has(name)) continue;
      const match = offered.find((choice) => choice.value === name) ?? offered.find((choice) => choice.label === name);
      if (!match || chosen.includes(match.value) || extra.includes(match.value)) continue;
      extra.push(match.value);
    }
  }
  return { fetch: [...chosen, ...extra], extra };
}

/** `table` without the metric columns keyed `keys` (metrics fetched only for calculated metrics). */
export function withoutMetrics(table: TTable, keys: readonly string[]): TTable {
  if (keys.length === 0) return table;
  const keep = table.metrics.map((metric) => !keys.includes(metric.key));
  const pick = <T>(values: readonly T[]) => values.filter((_, index) => keep[index]);
  return {
    ...table,
    metrics: pick(table.metrics),
    rows: table.rows.map((row) => ({ ...row, values: pick(row.values) })),
    totals: pick(table.totals),
  };
}
