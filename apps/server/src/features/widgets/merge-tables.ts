import type { TTable } from "@app/core";

/** One instance's finished table (calculated metrics applied) and the prefix its columns carry. */
export interface InstanceTable {
  prefix: string;
  table: TTable;
}

/** Column key of an instance's metric in the widget's table: 'a.sessions'. */
export function columnKey(prefix: string, metricKey: string): string {
  return `${prefix}.${metricKey}`;
}

function sameDimension(parts: readonly InstanceTable[]): boolean {
  const first = parts[0]?.table.dimension;
  return (
    !!first &&
    parts.every((part) => part.table.dimension?.key === first.key && part.table.dimension.kind === first.kind)
  );
}

/**
 * docs/product.md §4/§5 merging of a widget's instances into one table. Metric columns are keyed
 * '<prefix>.<metric>' (labels gain ' (<prefix>)' when the widget has several instances).
 * Instances sharing a dimension are joined on its value: dates in calendar order, other values in
 * order of first appearance; a value one instance lacks is null there. Otherwise (mixed types or
 * dimensions, the 'custom' config) the result is a summary: no dimension, no rows, every instance's totals.
 */
export function mergeInstanceTables(parts: readonly InstanceTable[], labelWithPrefix: boolean): TTable {
  const metrics = parts.flatMap(({ prefix, table }) =>
    table.metrics.map((metric) => ({
      ...metric,
      key: columnKey(prefix, metric.key),
      label: labelWithPrefix ? `${metric.label} (${prefix})` : metric.label,
    })),
  );
  const totals = parts.flatMap(({ table }) => table.totals);
  if (!sameDimension(parts)) return { dimension: null, metrics, rows: [], totals };

  const dimension = parts[0].table.dimension;
  const order: string[] = [];
  const seen = new Set<string>();
  const lookups = parts.map(({ table }) => {
    const byValue = new Map<string, (number | null)[]>();
    for (const row of table.rows) {
      const value = row.dimension ?? "";
      byValue.set(value, row.values);
      if (!seen.has(value)) {
        seen.add(value);
        order.push(value);
      }
    }
    return byValue;
  });
  if (dimension?.kind === "date") order.sort();
  const rows = order.map((value) => ({
    dimension: value,
    values: parts.flatMap(({ table }, index) => lookups[index].get(value) ?? table.metrics.map(() => null)),
  }));
  return { dimension, metrics, rows, totals };
}
