import type { TWidget } from "../contract/dashboards";
import { uniquePrefix } from "../widgets/merge";
import { METRICS_PARAM } from "../widgets/params";

/** A metric a widget alert may watch: its column key in the widget's table and how to name it. */
export interface WidgetAlertMetric {
  /** `<prefix>.<metric>`: the column of the widget's merged table (the server's columnKey). */
  key: string;
  /** The instance's metric key or calculated metric id, for looking its label up. */
  metric: string;
  /** The calculated metric's name; null for a connector metric (its label comes from the type). */
  name: string | null;
  /** Index of the instance in the widget. */
  instance: number;
}

/**
 * The metrics of a widget, keyed as its data's columns are: the chosen metrics of each instance, then
 * its calculated metrics, with prefixes made unique the way the data path makes them. Passive widgets
 * (text, images) have none.
 */
export function widgetAlertMetrics(widget: TWidget): WidgetAlertMetric[] {
  if (widget.nature !== "interactive") return [];
  const used = new Set<string>();
  return widget.instances.flatMap((instance, index) => {
    const prefix = uniquePrefix(instance.prefix, used);
    used.add(prefix);
    const chosen = Array.isArray(instance.inputs[METRICS_PARAM])
      ? (instance.inputs[METRICS_PARAM] as unknown[]).map(String)
      : [];
    const calculated = instance.inputs.calculatedMetrics ?? [];
    return [
      ...chosen.map((metric) => ({ key: `${prefix}.${metric}`, metric, name: null, instance: index })),
      ...calculated.map((metric) => ({
        key: `${prefix}.${metric.id}`,
        metric: metric.id,
        name: metric.name,
        instance: index,
      })),
    ];
  });
}
