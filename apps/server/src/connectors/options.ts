import { type TOption, type TWidgetParam, type TWidgetTypeConfig, WIDGET_FORMATS } from "@app/core";

/** A connector's declared metrics or dimensions as the options of a form's select. */
export const toOptions = (items: ReadonlyArray<{ key: string; label: string }>): TOption[] =>
  items.map((item) => ({ value: item.key, label: item.label }));

type Declared = ReadonlyArray<{ key: string; label: string }>;

/** The usual `dimension` select of a widget type's form (optional unless said otherwise). */
export const dimensionParam = (
  dimensions: Declared,
  options: { required?: boolean; label?: string; unless?: string } = {},
): TWidgetParam => ({
  key: "dimension",
  label: options.label ?? "Dimension",
  kind: "select",
  required: options.required ?? false,
  ...(options.unless ? { unless: options.unless } : {}),
  options: toOptions(dimensions),
});

/** The usual required `metrics` multi-select of a widget type's form. */
export const metricsParam = (metrics: Declared, label = "Metrics"): TWidgetParam => ({
  key: "metrics",
  label,
  kind: "multiselect",
  required: true,
  options: toOptions(metrics),
});

/**
 * A widget type as connectors declare it: every format unless said otherwise, no merging of widgets
 * without a dimension, not realtime. Spelled once so a new connector states only what is its own.
 */
export function widgetTypeConfig(
  declared: Pick<TWidgetTypeConfig, "type" | "label" | "connector" | "params"> &
    Partial<Pick<TWidgetTypeConfig, "formats" | "mergeWithoutDimension" | "realtime">>,
): TWidgetTypeConfig {
  return {
    formats: [...WIDGET_FORMATS],
    mergeWithoutDimension: false,
    realtime: false,
    ...declared,
  };
}
