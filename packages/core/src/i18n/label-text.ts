import type { TTable, TWidgetData } from "../contract/dashboards";

/**
 * Labels said in a language, given its label catalogue (i18n/labels.ts loads them): pure, with no
 * catalogue of its own, so modules of core's index (insights) use it without importing the catalogues'
 * JSON, which plain Node (the browser tests' runner) does not import without an attribute.
 */
export type LabelCatalogue = Readonly<Record<string, string>>;

/** `label` in the catalogue's language; a label it does not know (or no catalogue) reads as given. */
export function translateLabel(label: string, catalogue: LabelCatalogue | null): string {
  return catalogue && Object.hasOwn(catalogue, label) ? catalogue[label] : label;
}

/**
 * A table with its connector's labels translated. `typed` are names the dashboard's owner typed
 * (calculated metrics): they stay exactly as typed even when they happen to be a known label.
 */
export function translateTableLabels(
  table: TTable,
  catalogue: LabelCatalogue | null,
  typed: ReadonlySet<string>,
): TTable {
  if (!catalogue) return table;
  const said = (label: string) => (typed.has(label) ? label : translateLabel(label, catalogue));
  return {
    ...table,
    dimension: table.dimension && { ...table.dimension, label: said(table.dimension.label) },
    metrics: table.metrics.map((metric) => ({ ...metric, label: said(metric.label) })),
  };
}

/** Both periods' tables of a widget's data with translated labels (translateTableLabels). */
export function translateWidgetDataLabels<T extends TWidgetData>(
  data: T,
  catalogue: LabelCatalogue | null,
  typed: ReadonlySet<string>,
): T {
  if (!catalogue) return data;
  return {
    ...data,
    current: translateTableLabels(data.current, catalogue, typed),
    previous: data.previous && translateTableLabels(data.previous, catalogue, typed),
  };
}

/** The names a widget's owner typed, which no catalogue translates: its calculated metrics' names. */
export function typedLabels(
  instances: ReadonlyArray<{ inputs: { calculatedMetrics?: ReadonlyArray<{ name: string }> } }>,
) {
  return new Set(
    instances.flatMap((instance) => (instance.inputs.calculatedMetrics ?? []).map((metric) => metric.name)),
  );
}
