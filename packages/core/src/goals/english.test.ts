import { describe, expect, it } from "vitest";
import { translatorFor } from "../i18n/catalogues";
import en from "../i18n/messages/en.json";
import { ENGLISH_GOAL_KEYS, ENGLISH_GOALS } from "./english";

/** Values each goal message is said with, the plural and select branches included. */
const CASES: [string, Record<string, string | number>][] = [
  ["goals.progress", { value: "58,439", threshold: "70,000" }],
  ["goals.progressPercent", { value: "58,439", threshold: "70,000", percent: "83 %" }],
  ["goals.noData", { threshold: "70,000" }],
  ["goals.noBaseline", {}],
  ["goals.daysLeft", { days: 1 }],
  ["goals.daysLeft", { days: 3 }],
  ["goals.ended", {}],
  ["goals.met", {}],
  ["goals.noPace", {}],
  ...(["short", "over", "ahead", "under"] as const).flatMap((side): [string, Record<string, string>][] => [
    ["goals.onPace", { projected: "64,100", gap: "8 %", side }],
    ["goals.gap", { gap: "8 %", side }],
  ]),
  ["goals.periodWeek", {}],
  ["goals.periodWeekOf", { start: "Nov 23" }],
  ["goals.periodChange", {}],
  ["goals.withPeriod", { period: "November", line: "1 of 2" }],
  ["goals.summaryCount", { onTrack: 0, total: 1 }],
  ["goals.summaryCount", { onTrack: 2, total: 5 }],
  ["goals.summaryWorst", { label: "Revenue", gap: "12 %", side: "short" }],
  ["goals.summaryWorst", { label: "Cost", gap: "20 %", side: "over" }],
  ["goals.summary", { count: "2 of 5 goals on track", worst: "Revenue 12 % short" }],
];

describe("the goal lines' English without the ICU library", () => {
  it.each(CASES)("%s %j says what en.json says", (key, values) => {
    const english = translatorFor("en").t(key as keyof typeof en, values);
    expect(ENGLISH_GOALS.t(key as keyof typeof en, values)).toBe(english);
  });

  it("covers every goal message of en.json", () => {
    const goalKeys = Object.keys(en).filter((key) => key.startsWith("goals."));
    expect([...ENGLISH_GOAL_KEYS].sort()).toEqual(goalKeys.sort());
    expect(new Set(CASES.map(([key]) => key))).toEqual(new Set(goalKeys));
  });
});
