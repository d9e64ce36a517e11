import { describe, expect, it } from "vitest";
import { changeTone, isLowerBetterName } from "./change-tone";

describe("changeTone", () => {
  it.each([
    [12.5, false, "good"],
    [-4, false, "bad"],
    [12.5, true, "bad"],
    [-4, true, "good"],
    [0, false, "flat"],
    [0, true, "flat"],
    [null, false, "flat"],
    [undefined, true, "flat"],
    [Number.NaN, false, "flat"],
    [Number.POSITIVE_INFINITY, true, "flat"],
  ] as const)("change %s with lowerIsBetter=%s reads %s", (change, lower, tone) => {
    expect(changeTone(change, lower)).toBe(tone);
  });
});

describe("isLowerBetterName", () => {
  it.each([
    ["Avg. Position", true],
    ["Avg. Pos", true],
    ["Average position", true],
    ["avg_position", true],
    ["Position", true],
    ["Bounce Rate", true],
    ["Bounce rate", true],
    ["Bounces", true],
    ["Exit rate", true],
    ["CPC", true],
    ["CPA", true],
    ["cpm", true],
    ["Cost per click", true],
    ["Cost / Conversion", true],
    ["Cost per conversion", true],
    ["Page load time", true],
    ["Unsubscribes", true],
    ["Churn rate", true],
    ["Clicks", false],
    ["Impressions", false],
    ["CTR", false],
    ["Cost", false],
    ["Revenue", false],
    ["Conversion Rate", false],
    ["Sessions", false],
    ["Positions gained", false],
  ])("%s → %s", (name, expected) => {
    expect(isLowerBetterName(name)).toBe(expected);
  });
});
