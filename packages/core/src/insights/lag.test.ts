import { describe, expect, it } from "vitest";
import { lastFinalDay, rangeSettled } from "./lag";

const TODAY = "2026-11-26";
const range = (startDate: string, endDate: string) => ({ startDate, endDate });
const BEFORE = range("2026-10-01", "2026-10-31");

describe("lastFinalDay", () => {
  it.each<[number, string]>([
    [0, "2026-11-25"],
    [1, "2026-11-24"],
    [3, "2026-11-22"],
    [-2, "2026-11-25"],
    [1.7, "2026-11-24"],
  ])("lag %s days: %s", (lag, expected) => {
    expect(lastFinalDay(TODAY, lag)).toBe(expected);
  });
});

describe("rangeSettled", () => {
  it.each<[string, { startDate: string; endDate: string }, typeof BEFORE | null, number, boolean]>([
    ["no lag: even a range through today", range("2026-11-01", TODAY), BEFORE, 0, true],
    ["Search Console (3): ending on its last final day", range("2026-11-01", "2026-11-22"), BEFORE, 3, true],
    ["Search Console (3): ending the day after", range("2026-11-01", "2026-11-23"), BEFORE, 3, false],
    ["Search Console (3): last 7 days ending yesterday", range("2026-11-19", "2026-11-25"), BEFORE, 3, false],
    ["GA4 (1): ending yesterday", range("2026-11-19", "2026-11-25"), BEFORE, 1, false],
    ["GA4 (1): ending the day before yesterday", range("2026-11-18", "2026-11-24"), BEFORE, 1, true],
    ["GA4 (1): last month", range("2026-10-01", "2026-10-31"), range("2026-09-01", "2026-09-30"), 1, true],
    ["a custom comparison ending inside the lag", BEFORE, range("2026-11-20", "2026-11-25"), 3, false],
    ["no comparison: only the range counts", range("2026-11-01", "2026-11-20"), null, 3, true],
  ])("%s", (_name, main, comparison, lag, expected) => {
    expect(rangeSettled(main, comparison, lag, TODAY)).toBe(expected);
  });
});
