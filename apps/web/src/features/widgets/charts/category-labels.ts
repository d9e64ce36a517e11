/**
 * How the names under a vertical chart's category axis are laid out (countries, campaigns, pages under
 * bars beside a second axis). ECharts' default hides every label that would overlap its neighbour, so a
 * chart of nine countries named four of them: bars a client cannot name. Every name is shown instead,
 * level when the names fit their slots, turned and cut short (ellipsis, the whole name in the tooltip)
 * when they do not. The option builders do not know the card's pixels, so the width is estimated from
 * the widget's columns on the 4-column grid, or a phone's card when the chart is compact. In a card one
 * row high (a chart ~120 px tall) turned names took half the height, squeezing the bars to a few pixels,
 * and their beginnings fell below the chart: there names stay level, each cut to its slot.
 */
export interface CategoryLabels {
  /** Degrees the names are turned (0: level). */
  rotate: number;
  /** Each name's width in pixels, cut with an ellipsis beyond it. */
  width: number;
  /** 0: every name; "auto": ECharts skips some (only when even turned names cannot all be placed). */
  interval: 0 | "auto";
}

/** A 1280 px screen's grid column (4 per row) and a phone's card, in pixels. */
const COLUMN_PX = 300;
const PHONE_CARD_PX = 340;
/** The card's padding and each value axis's numbers. */
const CARD_PADDING_PX = 32;
const VALUE_AXIS_PX = 48;
/** An 11 px name's average letter, and the room kept between two names. */
const LETTER_PX = 6.3;
const GAP_PX = 8;
/** A turned name needs about this much room along the axis (its line height over the sine of the angle). */
const TURNED_SLOT_PX = 18;
const TURNED_DEGREES = 40;
/** The narrowest level name worth showing (four letters and the ellipsis); below it ECharts skips some. */
const LEVEL_MIN_PX = 32;
/** The widest a level name is in a card one row high (about eleven letters and the ellipsis). */
const LEVEL_MAX_PX = 64;

export function categoryLabels(options: {
  names: readonly string[];
  /** The widget's width in grid columns (1–4), and its height in grid rows. */
  columns: number;
  rows: number;
  compact: boolean;
  valueAxes: number;
}): CategoryLabels {
  const card = options.compact ? PHONE_CARD_PX : Math.max(1, Math.min(4, options.columns)) * COLUMN_PX;
  const plot = card - CARD_PADDING_PX - options.valueAxes * VALUE_AXIS_PX;
  const slot = plot / Math.max(1, options.names.length);
  const longest = Math.max(0, ...options.names.map((name) => name.length)) * LETTER_PX;
  if (longest + GAP_PX <= slot) return { rotate: 0, width: Math.floor(slot - GAP_PX), interval: 0 };
  if (!options.compact && options.rows <= 1) {
    // The estimate is the widest the card can be (no sidebar beside the grid): a name is cut shorter still,
    // so that names do not run into each other beside an open sidebar.
    const width = Math.min(LEVEL_MAX_PX, Math.floor(slot - GAP_PX));
    return { rotate: 0, width: Math.max(LEVEL_MIN_PX, width), interval: width >= LEVEL_MIN_PX ? 0 : "auto" };
  }
  return {
    rotate: TURNED_DEGREES,
    width: options.compact ? 72 : 96,
    interval: slot >= TURNED_SLOT_PX ? 0 : "auto",
  };
}
