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

const NAMED_RGB: Record<string, readonly [number, number, number]> = {
  black: [0, 0, 0],
  silver: [192, 192, 192],
  gray: [128, 128, 128],
  grey: [128, 128, 128],
  white: [255, 255, 255],
  maroon: [128, 0, 0],
  red: [255, 0, 0],
  purple: [128, 0, 128],
  fuchsia: [255, 0, 255],
  green: [0, 128, 0],
  lime: [0, 255, 0],
  olive: [128, 128, 0],
  yellow: [255, 255, 0],
  navy: [0, 0, 128],
  blue: [0, 0, 255],
  teal: [0, 128, 128],
  aqua: [0, 255, 255],
  orange: [255, 165, 0],
};

/** A channel of rgb(): 0–255 or a percentage. */
function channelOf(text: string): number {
  return text.endsWith("%") ? (Number.parseFloat(text) / 100) * 255 : Number.parseFloat(text);
}

/**
 * The red, green and blue (0–255) of a valid style colour (isValidColour), its alpha ignored; null for
 * 'transparent' and anything invalid.
 */
export function colourRgb(value: unknown): [number, number, number] | null {
  if (!isValidColour(value)) return null;
  const colour = value.trim().toLowerCase();
  const named = NAMED_RGB[colour];
  if (named) return [...named];
  if (colour.startsWith("#")) {
    const digits = colour.slice(1);
    const pairs =
      digits.length <= 4 ? [0, 1, 2].map((i) => digits[i] + digits[i]) : [0, 2, 4].map((i) => digits.slice(i, i + 2));
    return pairs.map((pair) => Number.parseInt(pair, 16)) as [number, number, number];
  }
  const parts = colour.match(/[\d.]+%?/g);
  if (!parts || parts.length < 3) return null;
  return [channelOf(parts[0]), channelOf(parts[1]), channelOf(parts[2])];
}

/** WCAG 2 relative luminance (0 black – 1 white) of a valid style colour; null when it has none. */
export function colourLuminance(value: unknown): number | null {
  const rgb = colourRgb(value);
  if (!rgb) return null;
  const [r, g, b] = rgb.map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
