import type { TMetricOption, TOrderBy } from "../contract/dashboards";
import { isSubFormat } from "./formats";
import { DEFAULT_ORDER_BY } from "./sizes";

/**
 * docs/product.md §5: a metric option keeps its own format only when it is a sub-format of the widget's
 * display format (see isSubFormat); otherwise the format is cleared to null and the other
 * options (cloaked, cloakedChange) are kept.
 */
export function sanitiseMetricsOptions(
  widgetFormat: string,
  metricsOptions: Readonly<Record<string, TMetricOption>>,
): Record<string, TMetricOption> {
  const result: Record<string, TMetricOption> = {};
  for (const [metric, option] of Object.entries(metricsOptions)) {
    const keep = option.format !== null && isSubFormat(option.format, widgetFormat);
    result[metric] = keep ? option : { ...option, format: null };
  }
  return result;
}

/** docs/product.md §5: the sort column falls back to the dimension ascending when it is not among the table's columns. */
export function resolveOrderBy(orderBy: TOrderBy | null | undefined, columns: readonly string[]): TOrderBy {
  if (orderBy && columns.includes(orderBy.column)) return orderBy;
  return { ...DEFAULT_ORDER_BY };
}
