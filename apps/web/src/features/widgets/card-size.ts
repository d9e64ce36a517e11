/** Below this card body width names are abbreviated and charts drop decorations (docs/product.md §9). */
export const COMPACT_WIDTH = 380;
/** Below this body height charts use fewer axis ticks. */
export const SHORT_HEIGHT = 170;

/** What a card body's measure decides for what it draws. */
export interface BodyFit {
  /** Narrow: abbreviated names, fewer decorations, a compact table. */
  compact: boolean;
  /** Low: fewer axis ticks. */
  short: boolean;
  /** The size a chart fits its texts to: only the gauge does; other charts keep their option on resize. */
  size: { width: number; height: number } | undefined;
}

/**
 * The one rule from a card body's border box (0 × 0 before it is measured: nothing is decided then) to
 * what its widget draws. The live card (WidgetCard, InteractiveWidgetBody) and the chart drawn before
 * the app starts (ssr/chart-placeholders.ts) both use it, so the drawing the app adopts is the one it
 * would have made.
 */
export function bodyFit(format: string, width: number, height: number): BodyFit {
  const measured = width > 0 && height > 0;
  return {
    compact: width > 0 && width < COMPACT_WIDTH,
    short: height > 0 && height < SHORT_HEIGHT,
    size: format === "chart:gauge" && measured ? { width, height } : undefined,
  };
}
