import type { TInteractiveWidget, TWidget, TWidgetInstance } from "../contract/dashboards";

/** What a widget edit needs (docs/product.md §4): refetch, re-render, only show, or nothing (passive widgets). */
export type WidgetChange = "data" | "style" | "reveal" | "none";

/** Structural equality of JSON-like values; object key order does not matter. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].every((key) => sameValue(left[key], right[key]));
}

// Metric options only change how data is drawn, so they are compared apart from the query fields.
function queryPart({ metricsOptions: _ignored, ...query }: TWidgetInstance): Omit<TWidgetInstance, "metricsOptions"> {
  return query;
}

const DATA_FIELDS = ["id", "percent"] as const satisfies ReadonlyArray<keyof TInteractiveWidget>;
const STYLE_FIELDS = ["orderBy", "rowsLimit", "format", "formatOptions"] as const satisfies ReadonlyArray<
  keyof TInteractiveWidget
>;

/**
 * docs/product.md §4 refresh classification. 'data' when the widget id or percent changed or any instance's
 * query changed (instances added or removed, type, source, accounts, config, prefix, currency,
 * inputs); 'style' when ordering, row limit, format, format options or metric options changed;
 * otherwise 'reveal'. A passive widget on either side needs no refresh.
 */
export function classifyWidgetChange(before: TWidget, after: TWidget): WidgetChange {
  if (before.nature === "passive" || after.nature === "passive") return "none";
  const dataChanged =
    DATA_FIELDS.some((field) => !sameValue(before[field], after[field])) ||
    !sameValue(before.instances.map(queryPart), after.instances.map(queryPart));
  if (dataChanged) return "data";
  const styleChanged =
    STYLE_FIELDS.some((field) => !sameValue(before[field], after[field])) ||
    !sameValue(
      before.instances.map((instance) => instance.metricsOptions),
      after.instances.map((instance) => instance.metricsOptions),
    );
  return styleChanged ? "style" : "reveal";
}
