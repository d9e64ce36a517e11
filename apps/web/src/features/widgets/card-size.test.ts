import { describe, expect, it } from "vitest";
import { bodyFit, COMPACT_WIDTH, cardBoxesAt, SHORT_HEIGHT } from "./card-size";

describe("bodyFit: what a card body's measure decides (the live card and the chart drawn before the app)", () => {
  it.each([
    // Not measured yet (the server's render, the first render): nothing is decided.
    { format: "chart:line", width: 0, height: 0, compact: false, short: false, size: undefined },
    { format: "chart:gauge", width: 0, height: 0, compact: false, short: false, size: undefined },
    // A phone's card and a wide card.
    { format: "chart:line", width: 320, height: 200, compact: true, short: false, size: undefined },
    { format: "chart:line", width: 640, height: 120, compact: false, short: true, size: undefined },
    // The edges: at the limit is not below it.
    { format: "table", width: COMPACT_WIDTH, height: SHORT_HEIGHT, compact: false, short: false, size: undefined },
    {
      format: "table",
      width: COMPACT_WIDTH - 1,
      height: SHORT_HEIGHT - 1,
      compact: true,
      short: true,
      size: undefined,
    },
    // Only the gauge fits its texts to the body's size, and only once both sides are known.
    { format: "chart:gauge", width: 300, height: 180, compact: true, short: false, size: { width: 300, height: 180 } },
    { format: "chart:gauge", width: 300, height: 0, compact: true, short: false, size: undefined },
  ])("$format at $width × $height", ({ format, width, height, ...expected }) => {
    expect(bodyFit(format, width, height)).toEqual(expected);
  });
});

describe("cardBoxesAt: a card's body and chart box before the page is laid out (what the server draws ahead at)", () => {
  // Worked by hand from dashboard.css: the sidebar (288 px) beside the canvas above 768 px, the canvas's
  // padding (28 px a side, 12 on phones), 4 columns above 900 px of grid, 2 above 560, else 1; 16 px gaps,
  // 180 px rows; the card's 1 px border, its 40 px header and its body's padding (6 16 14 16).
  it.each([
    // A laptop: a 936 px grid of 4 columns of 222 px.
    { viewport: 1280, w: 2, h: 1, body: { width: 458, height: 138 }, chart: { width: 426, height: 118 } },
    { viewport: 1280, w: 1, h: 1, body: { width: 220, height: 138 }, chart: { width: 188, height: 118 } },
    { viewport: 1280, w: 4, h: 2, body: { width: 934, height: 334 }, chart: { width: 902, height: 314 } },
    // A wide screen: 1576 px of grid, columns of 382 px.
    { viewport: 1920, w: 3, h: 1, body: { width: 1176, height: 138 }, chart: { width: 1144, height: 118 } },
    // A tablet: the sidebar over the canvas, 2 columns of 314 px; a 3-wide widget takes both.
    { viewport: 700, w: 3, h: 1, body: { width: 642, height: 138 }, chart: { width: 610, height: 118 } },
    // A small laptop window: the sidebar beside a 456 px grid, one column, phone-height rows.
    { viewport: 800, w: 2, h: 2, body: { width: 454, height: 298 }, chart: { width: 422, height: 278 } },
    // A phone: one 366 px column; rows as high as the stylesheet's minimum for the widget's height.
    { viewport: 390, w: 4, h: 1, body: { width: 364, height: 158 }, chart: { width: 332, height: 138 } },
    { viewport: 390, w: 1, h: 3, body: { width: 364, height: 398 }, chart: { width: 332, height: 378 } },
  ])("$w × $h at $viewport px", ({ viewport, w, h, ...expected }) => {
    expect(cardBoxesAt(viewport, w, h)).toEqual(expected);
  });

  it("knows nothing without a viewport or a size", () => {
    expect(cardBoxesAt(0, 2, 1)).toBeNull();
    expect(cardBoxesAt(Number.NaN, 2, 1)).toBeNull();
    expect(cardBoxesAt(1280, 0, 1)).toBeNull();
  });
});
