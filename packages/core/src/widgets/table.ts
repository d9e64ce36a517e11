import type { TTable, TWidgetData } from "../contract/dashboards";
import { DIMENSION_COLUMN } from "./sizes";

/** The query result shared by server and web; the zod schema is ZTable in the contract. */
export type Table = TTable;
/** A widget's current table and, with comparison on, the previous period's. */
export type WidgetData = TWidgetData;

/** Column keys a table can be ordered by: 'dimension' (when it has one) then each metric key. */
export function tableColumns(table: Pick<TTable, "dimension" | "metrics">): string[] {
  const metricKeys = table.metrics.map((metric) => metric.key);
  return table.dimension ? [DIMENSION_COLUMN, ...metricKeys] : metricKeys;
}

/** A table with the given columns and no rows, for a widget whose query has not run. */
export function emptyTable(metrics: TTable["metrics"], dimension: TTable["dimension"] = null): TTable {
  return { dimension, metrics, rows: [], totals: metrics.map(() => null) };
}
