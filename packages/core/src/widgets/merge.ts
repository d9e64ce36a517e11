import type { TInteractiveWidget, TWidget, TWidgetInstance } from "../contract/dashboards";
import { formatOptionsFor } from "./formats";

/** Config every instance gets when a merge mixes widget types (docs/product.md §4). */
export const CUSTOM_CONFIG = "custom";

/** The instance input that holds a widget's dimension. */
export const DIMENSION_PARAM = "dimension";

/** The dimension a widget's query groups by, or null when it has none. */
export function widgetDimension(widget: TInteractiveWidget): string | null {
  const value = widget.instances[0]?.inputs[DIMENSION_PARAM];
  return typeof value === "string" && value !== "" ? value : null;
}

/**
 * docs/product.md §5: `other` may merge into `base` when it is interactive, has a single instance, is neither the
 * widget being edited nor the base, and either has the same type and the same dimension as the base,
 * or neither has a dimension and both types are in `dimensionlessTypes` (types whose config says
 * mergeWithoutDimension; their types may differ, which makes the result a summary).
 */
export function canMerge(
  base: TWidget,
  other: TWidget,
  editedId: string | null,
  dimensionlessTypes: readonly string[] = [],
): boolean {
  if (base.nature !== "interactive" || other.nature !== "interactive") return false;
  if (other.instances.length !== 1 || other.id === editedId || other.id === base.id) return false;
  const baseType = base.instances[0]?.type;
  const otherType = other.instances[0].type;
  const baseDimension = widgetDimension(base);
  const otherDimension = widgetDimension(other);
  if (baseDimension !== null || otherDimension !== null) {
    return baseType === otherType && baseDimension === otherDimension;
  }
  return dimensionlessTypes.includes(baseType) && dimensionlessTypes.includes(otherType);
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** The first free prefix: the wanted one, else the first unused letter, else the wanted one with a number. */
export function uniquePrefix(wanted: string, used: ReadonlySet<string>): string {
  if (wanted !== "" && !used.has(wanted)) return wanted;
  const letter = [...LETTERS].find((candidate) => !used.has(candidate));
  if (letter) return letter;
  const stem = wanted || "m";
  let counter = 2;
  while (used.has(`${stem}${counter}`)) counter += 1;
  return `${stem}${counter}`;
}

/**
 * docs/product.md §4 merging: the base absorbs the instances of `others` in order, every prefix made unique
 * (the base's own prefixes are kept). When the instance types differ, every instance's config
 * becomes 'custom' and the base's format becomes 'summary' (mixed queries share no chart axis).
 * Callers check canMerge first and delete the absorbed widgets.
 */
export function mergeWidgets(base: TInteractiveWidget, others: readonly TInteractiveWidget[]): TInteractiveWidget {
  const used = new Set<string>();
  const instances: TWidgetInstance[] = [];
  for (const instance of [...base.instances, ...others.flatMap((other) => other.instances)]) {
    const prefix = uniquePrefix(instance.prefix, used);
    used.add(prefix);
    instances.push({ ...instance, prefix });
  }
  const mixed = new Set(instances.map((instance) => instance.type)).size > 1;
  if (!mixed) return { ...base, instances };
  return {
    ...base,
    format: "summary",
    formatOptions: formatOptionsFor("summary"),
    instances: instances.map((instance) => ({ ...instance, config: CUSTOM_CONFIG })),
  };
}
