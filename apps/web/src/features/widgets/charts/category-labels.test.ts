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
    ["three devices in a half-width card fit level", ["desktop", "mobile", "tablet"], 2, false, 2, 0, 0],
    ["nine countries in a half-width card, two axes: turned, every one named", COUNTRIES, 2, false, 2, 40, 0],
    ["nine countries across the whole width: level, every one named", COUNTRIES, 4, false, 2, 0, 0],
    ["nine countries on a phone: turned, every one named", COUNTRIES, 2, true, 2, 40, 0],
    [
      "forty campaigns on a phone: turned, and ECharts may skip some",
      Array.from({ length: 40 }, (_, i) => `Campaign ${i}`),
      1,
      true,
      1,
      40,
      "auto",
    ],
  ])("%s", (_name, names, columns, compact, valueAxes, rotate, interval) => {
    const labels = categoryLabels({ names, columns, compact, valueAxes });
    expect(labels.rotate).toBe(rotate);
    expect(labels.interval).toBe(interval);
    expect(labels.width).toBeGreaterThan(30);
  });
});
