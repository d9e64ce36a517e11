import { describe, expect, it } from "vitest";
import { categoryLabels } from "./category-labels";

const COUNTRIES = [
  "United States",
  "Germany",
  "United Kingdom",
  "France",
  "Canada",
  "Spain",
  "Netherlands",
  "Italy",
  "Other",
];

describe("categoryLabels (names under a vertical chart's category axis)", () => {
  it.each([
    ["three devices in a half-width card fit level", ["desktop", "mobile", "tablet"], 2, 2, false, 2, 0, 0],
    ["nine countries in a half-width card, two axes: turned, every one named", COUNTRIES, 2, 2, false, 2, 40, 0],
    ["nine countries across the whole width: level, every one named", COUNTRIES, 4, 2, false, 2, 0, 0],
    ["nine countries on a phone: turned, every one named", COUNTRIES, 2, 2, true, 2, 40, 0],
    [
      "forty campaigns on a phone: turned, and ECharts may skip some",
      Array.from({ length: 40 }, (_, i) => `Campaign ${i}`),
      1,
      2,
      true,
      1,
      40,
      "auto",
    ],
    // One row high, turned names would take half the chart's height and run out of its bottom.
    ["nine countries in a half-width card one row high: level, each cut to its slot", COUNTRIES, 2, 1, false, 2, 0, 0],
    [
      "forty campaigns in a half-width card one row high: level, and ECharts may skip some",
      Array.from({ length: 40 }, (_, i) => `Campaign ${i}`),
      2,
      1,
      false,
      2,
      0,
      "auto",
    ],
    ["nine countries on a phone one row high: turned, every one named", COUNTRIES, 2, 1, true, 2, 40, 0],
  ])("%s", (_name, names, columns, rows, compact, valueAxes, rotate, interval) => {
    const labels = categoryLabels({ names, columns, rows, compact, valueAxes });
    expect(labels.rotate).toBe(rotate);
    expect(labels.interval).toBe(interval);
    expect(labels.width).toBeGreaterThan(30);
  });

  it("one row high, a level name is cut to 64 px at most: the grid may be narrower than estimated (a sidebar open)", () => {
    const names = ["Brand - Search", "Competitors - Search", "Generic - Search", "Prospecting - Video"];
    expect(categoryLabels({ names, columns: 2, rows: 1, compact: false, valueAxes: 2 })).toEqual({
      rotate: 0,
      width: 64,
      interval: 0,
    });
  });
});
