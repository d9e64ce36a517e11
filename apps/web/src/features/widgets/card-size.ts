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

/**
 * The dashboard stylesheet's measures (features/dashboard/dashboard.css) that size a card before the page
 * is laid out: card-size.test.ts reads them from the stylesheet, so the two cannot drift apart silently.
 */
export const GRID = {
  sidebarWidth: 288,
  /** Widest viewport whose sidebar lies over the canvas instead of beside it. */
  sidebarOverlayMaxViewport: 768,
  mainPadding: 28,
  phoneMainPadding: 12,
  phoneMaxViewport: 600,
  twoColumnsMaxWidth: 900,
  oneColumnMaxWidth: 560,
  gap: 16,
  rowHeight: 180,
  /** A phone's cell heights by the widget's rows (one column, rows as high as their content). */
  phoneCellHeights: [200, 340, 440],
  cardBorder: 1,
  headerHeight: 40,
  bodyPadding: { top: 6, right: 16, bottom: 14, left: 16 },
} as const;

/** A card's body (border box, what `bodyFit` reads) and its chart's box, in CSS pixels. */
export interface CardBoxes {
  body: { width: number; height: number };
  chart: { width: number; height: number };
}

/**
 * The size a card's body and chart will have on a member's dashboard at this viewport width, before
 * anything is measured: what the server draws a member's charts at (ssr/server-entry.tsx). It holds for a
 * card whose body holds only its chart (no filter, goal or notice lines, which the server then leaves to
 * the browser) and with the sidebar as it first shows (open beside the canvas on wide screens, over it
 * on narrower ones). A browser whose classic scrollbar takes width draws again at its own measure.
 */
export function cardBoxesAt(viewportWidth: number, width: number, height: number): CardBoxes | null {
  if (!(viewportWidth > 0) || width < 1 || height < 1) return null;
  const sidebar = viewportWidth > GRID.sidebarOverlayMaxViewport ? GRID.sidebarWidth : 0;
  const padding = viewportWidth <= GRID.phoneMaxViewport ? GRID.phoneMainPadding : GRID.mainPadding;
  const grid = viewportWidth - sidebar - 2 * padding;
  const columns = grid <= GRID.oneColumnMaxWidth ? 1 : grid <= GRID.twoColumnsMaxWidth ? 2 : 4;
  const track = (grid - (columns - 1) * GRID.gap) / columns;
  const span = Math.min(width, columns);
  const cellWidth = track * span + GRID.gap * (span - 1);
  const cellHeight =
    columns === 1
      ? GRID.phoneCellHeights[Math.min(height, GRID.phoneCellHeights.length) - 1]
      : GRID.rowHeight * height + GRID.gap * (height - 1);
  const body = {
    width: Math.round(cellWidth - 2 * GRID.cardBorder),
    height: Math.round(cellHeight - 2 * GRID.cardBorder - GRID.headerHeight),
  };
  const { top, right, bottom, left } = GRID.bodyPadding;
  const chart = { width: body.width - left - right, height: body.height - top - bottom };
  return chart.width > 0 && chart.height > 0 ? { body, chart } : null;
}
