/** Colour names accepted in dashboard styles: the CSS basic colours, orange and transparent. */
export const NAMED_COLOURS = [
  "black",
  "silver",
  "gray",
  "grey",
  "white",
  "maroon",
  "red",
  "purple",
  "fuchsia",
  "green",
  "lime",
  "olive",
  "yellow",
  "navy",
  "blue",
  "teal",
  "aqua",
  "orange",
  "transparent",
] as const;

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const CHANNEL = String.raw`(?:25[0-5]|2[0-4]\d|1?\d?\d|(?:100|\d?\d(?:\.\d+)?)%)`;
const ALPHA = String.raw`(?:0|1|0?\.\d+|1\.0+|(?:100|\d?\d(?:\.\d+)?)%)`;
const RGB_COMMAS = new RegExp(
  String.raw`^rgba?\(\s*${CHANNEL}\s*,\s*${CHANNEL}\s*,\s*${CHANNEL}\s*(?:,\s*${ALPHA}\s*)?\)$`,
  "i",
);
const RGB_SPACES = new RegExp(
  String.raw`^rgba?\(\s*${CHANNEL}\s+${CHANNEL}\s+${CHANNEL}\s*(?:\/\s*${ALPHA}\s*)?\)$`,
  "i",
);

/**
 * docs/product.md §5: dashboard style colours apply only if valid. Accepts #rgb, #rgba, #rrggbb, #rrggbbaa,
 * rgb()/rgba() in comma or space syntax, and NAMED_COLOURS. Anything else (including CSS that
 * could break out of a style attribute) is refused.
 */
export function isValidColour(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const colour = value.trim();
  if (HEX.test(colour) || RGB_COMMAS.test(colour) || RGB_SPACES.test(colour)) return true;
  return (NAMED_COLOURS as readonly string[]).includes(colour.toLowerCase());
}

/** The colour to apply: `value` when valid, else `fallback` (docs/product.md §5). */
export function colourOrFallback<T>(value: unknown, fallback: T): string | T {
  return isValidColour(value) ? value.trim() : fallback;
}
