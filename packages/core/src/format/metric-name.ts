/**
 * Known short forms of the long words metric names are made of (docs/product.md §9). A name is only
 * ever shortened word by word, to one of these: "Avg. Sess. Duration", never "Avg Sessi Durat".
 */
export const METRIC_WORD_SHORT_FORMS: Readonly<Record<string, string>> = {
  average: "Avg.",
  session: "Sess.",
  sessions: "Sess.",
  conversion: "Conv.",
  conversions: "Conv.",
  duration: "Dur.",
  impression: "Impr.",
  impressions: "Impr.",
  engagement: "Eng.",
  transaction: "Trans.",
  transactions: "Trans.",
  percentage: "Pct.",
  position: "Pos.",
  revenue: "Rev.",
};

/** The known short form of one word ("Sessions" → "Sess."), or null. */
function shortFormOf(word: string): string | null {
  const short = METRIC_WORD_SHORT_FORMS[word.toLowerCase()];
  return short && short.length < word.length ? short : null;
}

/** Lines `words` take when wrapped at word boundaries in lines of `width` characters. */
function linesOf(words: readonly string[], width: number): number {
  let lines = 0;
  let used = width;
  for (const word of words) {
    if (used + 1 + word.length <= width) used += 1 + word.length;
    else {
      // A word longer than a line takes lines of its own (the screen breaks it rather than clip it).
      lines += Math.ceil(word.length / width);
      used = word.length;
    }
  }
  return lines;
}

/**
 * docs/product.md §9: a metric name shown in `lines` lines of `lineChars` characters. The whole name
 * when it wraps into them at word boundaries; otherwise the words that cannot fit a line, then the
 * others from the first on, take their known short form until it does. A word without one stays whole (the
 * screen wraps it), so nothing is ever cut mid-word. `lineChars` 0 or less (not measured yet): whole.
 * Screens, the print view (the PDF and the report e-mails' pictures) and charts all use this one rule.
 */
export function fitMetricName(name: string, lineChars: number, lines = 2): string {
  const trimmed = name.trim();
  if (!(lineChars > 0) || !trimmed) return trimmed;
  const maxLines = Math.max(1, Math.floor(lines));
  // Words too long for any line first: they would otherwise break mid-word.
  const fitted = trimmed.split(/\s+/).map((word) => (word.length > lineChars ? (shortFormOf(word) ?? word) : word));
  // Then from the first word on: leading qualifiers ("Average", "Conversion") are the usual ones shortened.
  for (let index = 0; index < fitted.length && linesOf(fitted, lineChars) > maxLines; index += 1) {
    fitted[index] = shortFormOf(fitted[index]) ?? fitted[index];
  }
  return fitted.join(" ");
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
