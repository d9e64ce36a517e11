import { isFilled } from "../forms/filled";

/** The general widget form while it is being edited: any field may still be empty. */
export type WidgetFormState =
  | {
      nature: "interactive";
      title?: unknown;
      width?: unknown;
      height?: unknown;
      format?: unknown;
      instances: ReadonlyArray<{ prefix?: unknown; config?: unknown }>;
    }
  | { nature: "passive"; title?: unknown; width?: unknown; height?: unknown; format?: unknown; type?: unknown };

/**
 * docs/product.md §5 widget form validity. Both natures need title, width, height and format filled; an
 * interactive widget needs at least one instance and every instance a prefix and a config (a widget
 * with no query has nothing to show); a passive one needs its type chosen.
 */
export function isWidgetFormValid(form: WidgetFormState): boolean {
  const general = [form.title, form.width, form.height, form.format].every(isFilled);
  if (!general) return false;
  if (form.nature === "passive") return isFilled(form.type);
  return (
    form.instances.length > 0 &&
    form.instances.every((instance) => isFilled(instance.prefix) && isFilled(instance.config))
  );
}
