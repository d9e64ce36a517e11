/** Letters kept from each part of an abbreviated metric name (docs/product.md §9). */
export const ABBREVIATED_PART_LENGTH = 5;

/**
 * docs/product.md §9: dashboard metrics abbreviate names to the first 5 letters of each part. Parts are split
 * on spaces, underscores, dots, colons, hyphens and camelCase humps; the case of each part is kept,
 * so 'Sessions Per User' → 'Sessi Per User' and 'sessions_per_user' → 'sessi per user'.
 */
export function abbreviateMetricName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_.:-]+/)
    .filter((part) => part.length > 0)
    .map((part) => Array.from(part).slice(0, ABBREVIATED_PART_LENGTH).join(""))
    .join(" ");
}

/** Below this many units the first, steeper reduction applies (docs/product.md §9). */
export const FONT_SCALE_STEEP_UNITS = 200;
export const FONT_SCALE_STEEP_STEP = 0.2;
export const FONT_SCALE_GENTLE_STEP = 0.02;
export const FONT_SCALE_FLOOR = 2.5;

/**
 * docs/product.md §9 widget-size estimate, read as a percentage of the base font size: start at 100,
 * subtract 0.2 per unit for the first 200 units and 0.02 per unit beyond, then subtract
 * `minusPercent` points; never below 2.5. A "unit" is whatever the caller measures the
 * widget's content in (characters of the longest value, cells of a table).
 */
export function estimateFontScale(units: number, minusPercent = 0): number {
  const count = Number.isFinite(units) ? Math.max(0, units) : 0;
  const steep = Math.min(count, FONT_SCALE_STEEP_UNITS) * FONT_SCALE_STEEP_STEP;
  const gentle = Math.max(count - FONT_SCALE_STEEP_UNITS, 0) * FONT_SCALE_GENTLE_STEP;
  const minus = Number.isFinite(minusPercent) ? minusPercent : 0;
  const scale = 100 - steep - gentle - minus;
  // Round away float noise (0.2 * 3 = 0.6000000000000001) so callers can compare exact values.
  return Math.max(FONT_SCALE_FLOOR, Math.round(scale * 1000) / 1000);
}
