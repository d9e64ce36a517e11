import type { TOrderBy } from "../contract/dashboards";
import type { WidgetFormat } from "./formats";

/** The dashboard grid is 4 columns wide; widgets are 1 to 3 rows high (docs/product.md §3). */
export const GRID_COLUMNS = 4;
export const WIDGET_WIDTHS = [1, 2, 3, 4] as const;
export const WIDGET_HEIGHTS = [1, 2, 3] as const;

export interface WidgetSize {
  name: string;
  width: number;
  height: number;
}

/** The 12 size options '1x1'..'4x3' (width x height), in the product's order: 1x1 to 4x1, then 1x2 … */
export const WIDGET_SIZES: readonly WidgetSize[] = WIDGET_HEIGHTS.flatMap((height) =>
  WIDGET_WIDTHS.map((width) => ({ name: `${width}x${height}`, width, height })),
);

/** Size option for a width and height, or null when the grid has no such size. */
export function widgetSize(width: number, height: number): WidgetSize | null {
  return WIDGET_SIZES.find((size) => size.width === width && size.height === height) ?? null;
}

/** Size option by its name ('2x1'), or null. */
export function widgetSizeByName(name: string): WidgetSize | null {
  return WIDGET_SIZES.find((size) => size.name === name) ?? null;
}

/** Column key of the dimension in a table's orderBy (metrics use their own keys). */
export const DIMENSION_COLUMN = "dimension";

/** Default ordering of docs/product.md §9: by the dimension, ascending. */
export const DEFAULT_ORDER_BY: TOrderBy = { column: DIMENSION_COLUMN, dir: "asc" };

/** New interactive widget defaults (docs/product.md §9). */
export const INTERACTIVE_WIDGET_DEFAULTS = {
  format: "table" as WidgetFormat,
  rowsLimit: 15,
  width: 2,
  height: 1,
  orderBy: DEFAULT_ORDER_BY,
};

/** New passive widget defaults (docs/product.md §9). */
export const PASSIVE_WIDGET_DEFAULTS = {
  format: "textCard" as const,
  width: 2,
  height: 1,
};
