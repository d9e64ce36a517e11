import { describe, expect, it } from "vitest";
import { colourOrFallback, isValidColour } from "./colour";
import { estimateFontScale, fitMetricName } from "./metric-name";
import { type FormatNumberOptions, formatChange, formatNumber } from "./number";
import { formatDuration, toSeconds } from "./time";

describe("formatNumber (docs/product.md §8, §9)", () => {
  it.each<[string, number | null | undefined, FormatNumberOptions, string]>([
    ["integer", 1234, {}, "1,234"],
    ["two fraction digits at most", 1234.5678, {}, "1,234.57"],
    ["no trailing zeros", 2.5, {}, "2.5"],
    ["negative", -12.345, {}, "-12.35"],
    ["tiny negative is zero", -0.001, {}, "0"],
    ["zero", 0, {}, "0"],
    ["money defaults to USD", 1234.5, { format: "money" }, "$1,234.50"],
    ["money rounds to cents", 0.125, { format: "money" }, "$0.13"],
    ["money negative", -5, { format: "money" }, "-$5.00"],
    ["money in EUR", 10, { format: "money", currency: "EUR" }, "€10.00"],
    ["money lower-case code", 10, { format: "money", currency: "gbp" }, "£10.00"],
    ["money in JPY keeps no decimals", 1500, { format: "money", currency: "JPY" }, "¥1,500"],
    ["money null currency is USD", 3, { format: "money", currency: null }, "$3.00"],
    ["money unknown currency shows the code", 3, { format: "money", currency: "ZZZZ" }, "ZZZZ 3"],
    ["percent", 12.345, { format: "percent" }, "12.35%"],
    ["percent negative", -4, { format: "percent" }, "-4%"],
    ["time in seconds", 3723, { format: "time" }, "1h 2m 3s"],
    ["time in milliseconds", 61500, { format: "time", timeUnit: "milliseconds" }, "1m 2s"],
    ["time in minutes", 90, { format: "time", timeUnit: "minutes" }, "1h 30m"],
    ["time negative", -65, { format: "time" }, "-1m 5s"],
    ["NaN", Number.NaN, {}, "N/A"],
    ["Infinity", Number.POSITIVE_INFINITY, { format: "money" }, "N/A"],
    ["null", null, { format: "percent" }, "N/A"],
    ["undefined", undefined, { format: "time" }, "N/A"],
  ])("%s", (_label, value, options, expected) => {
    expect(formatNumber(value, options)).toBe(expected);
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "0s"],
    [0.4, "0s"],
    [-0.4, "0s"],
    [59, "59s"],
    [60, "1m"],
    [3600, "1h"],
    [3601, "1h 1s"],
    [3660, "1h 1m"],
    [90061, "25h 1m 1s"],
    [-3723, "-1h 2m 3s"],
    [1.6, "2s"],
  ])("%s s → %s", (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });

  it.each([
    [1500, "milliseconds", 1.5],
    [2, "minutes", 120],
    [1.5, "hours", 5400],
    [7, "seconds", 7],
  ] as const)("toSeconds(%s, %s) → %s", (value, unit, expected) => {
    expect(toSeconds(value, unit)).toBe(expected);
  });
});

describe("formatChange", () => {
  it.each([
    [150, 100, 50],
    [50, 100, -50],
    [100, 100, 0],
    [0, 100, -100],
    [-50, -100, 50],
    [5, 0, null],
    [5, Number.NaN, null],
    [Number.POSITIVE_INFINITY, 5, null],
    [null, 5, null],
    [5, null, null],
  ])("%s vs %s → %s", (current, previous, expected) => {
    expect(formatChange(current, previous)).toBe(expected);
  });
});

describe("fitMetricName (docs/product.md §9)", () => {
  it.each([
    // Whole when it wraps into two lines at word boundaries.
    ["Avg. Session Duration", 22, 2, "Avg. Session Duration"],
    ["Avg. Session Duration", 12, 2, "Avg. Session Duration"],
    ["Avg. Session Duration", 11, 2, "Avg. Sess. Duration"],
    // As short as known short forms make it, even when that still takes more lines.
    ["Avg. Session Duration", 8, 2, "Avg. Sess. Dur."],
    // A word that cannot fit a line takes its short form; other words stay whole.
    ["Average Session Duration", 8, 3, "Average Session Duration"],
    ["Average Session Duration", 7, 3, "Average Session Dur."],
    ["Sessions Per User", 7, 2, "Sess. Per User"],
    ["Conversion Rate", 9, 2, "Conv. Rate"],
    ["conversion rate", 9, 2, "Conv. rate"],
    // Too many lines: the longest words with a short form go first, at word boundaries.
    ["Average Engagement Time Per Session", 14, 2, "Avg. Eng. Time Per Session"],
    ["Average Session Duration", 30, 1, "Average Session Duration"],
    ["Average Session Duration", 20, 1, "Avg. Sess. Duration"],
    // No known short form: the word stays whole (the screen wraps it), never cut mid-word.
    ["Pageviews", 5, 2, "Pageviews"],
    ["Clicks", 3, 2, "Clicks"],
    ["CTR", 2, 2, "CTR"],
    // Not measured yet: whole; spacing tidied.
    ["Avg. Session Duration", 0, 2, "Avg. Session Duration"],
    ["Avg. Session Duration", Number.NaN, 2, "Avg. Session Duration"],
    ["  spaced   out  ", 20, 2, "spaced out"],
    ["", 10, 2, ""],
  ])("%s in %s chars × %s lines → %s", (name, chars, lines, expected) => {
    expect(fitMetricName(name, chars, lines)).toBe(expected);
  });
});

describe("estimateFontScale (docs/product.md §9)", () => {
  it.each([
    [0, 0, 100],
    [1, 0, 99.8],
    [100, 0, 80],
    [200, 0, 60],
    [300, 0, 58],
    [1200, 0, 40],
    [100, 10, 70],
    [200, 57.5, 2.5],
    [200, 90, 2.5],
    [-5, 0, 100],
    [Number.NaN, 0, 100],
  ])("%s units minus %s%% → %s", (units, minus, expected) => {
    expect(estimateFontScale(units, minus)).toBe(expected);
  });
});

describe("isValidColour (docs/product.md §5)", () => {
  it.each([
    ["#fff", true],
    ["#FFFA", true],
    ["#1a2b3c", true],
    ["#1a2b3c80", true],
    ["#1a2b3", false],
    ["#ggg", false],
    ["fff", false],
    ["rgb(0, 128, 255)", true],
    ["rgba(0,128,255,0.5)", true],
    ["rgba(0, 128, 255, 50%)", true],
    ["rgb(100%, 0%, 0%)", true],
    ["rgb(0 128 255 / 0.5)", true],
    ["rgb(256, 0, 0)", false],
    ["rgb(0, 0)", false],
    ["rgba(0, 0, 0, 2)", false],
    ["red", true],
    ["Navy", true],
    ["transparent", true],
    ["rebeccapurple", false],
    ["red; background: url(x)", false],
    ["", false],
    [null, false],
    [123, false],
  ])("%s → %s", (value, expected) => {
    expect(isValidColour(value)).toBe(expected);
  });

  it.each([
    [" #abc ", null, "#abc"],
    ["nope", null, null],
    ["nope", "#000", "#000"],
  ])("colourOrFallback(%s, %s) → %s", (value, fallback, expected) => {
    expect(colourOrFallback(value, fallback)).toBe(expected);
  });
});
