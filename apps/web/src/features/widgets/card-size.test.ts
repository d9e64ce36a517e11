import { describe, expect, it } from "vitest";
import { bodyFit, COMPACT_WIDTH, SHORT_HEIGHT } from "./card-size";

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
