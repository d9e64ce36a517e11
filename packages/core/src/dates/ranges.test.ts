import { describe, expect, it } from "vitest";
import { daysBetween, formatDay, isValidDay, parseDay, shiftDay, todayInTimezone } from "./day";
import {
  canApply,
  type DashboardDateRange,
  defaultCompareRange,
  effectiveCompareRange,
  normaliseRange,
  type PresetRangeType,
  RANGE_TYPES,
  type RangeLimits,
  rangeForType,
  rangeLength,
  switchRangeType,
} from "./ranges";

// 2026-03-18 is a Wednesday; yesterday (the default latest day) is Tuesday 2026-03-17.
const today = "2026-03-18";

describe("RANGE_TYPES", () => {
  it("lists the product's labels in order", () => {
    expect(RANGE_TYPES.map((type) => type.label)).toEqual([
      "Monthly",
      "Weekly",
      "Last 30 Days",
      "Last 7 Days",
      "Last Month",
      "Mid-Monthly",
      "Daily",
      "Custom",
    ]);
  });
});

describe("rangeForType (docs/product.md §9)", () => {
  it.each<[string, PresetRangeType, RangeLimits, string, string]>([
    ["monthly ends yesterday", "monthly", { today }, "2026-03-01", "2026-03-17"],
    ["monthly with today allowed", "monthly", { today, allowToday: true }, "2026-03-01", "2026-03-18"],
    ["monthly on the 1st is last month", "monthly", { today: "2026-03-01" }, "2026-02-01", "2026-02-28"],
    [
      "monthly on the 1st, today allowed",
      "monthly",
      { today: "2026-03-01", allowToday: true },
      "2026-03-01",
      "2026-03-01",
    ],
    ["monthly with an explicit max", "monthly", { today, maxDate: "2026-02-10" }, "2026-02-01", "2026-02-10"],
    ["weekly starts Monday", "weekly", { today }, "2026-03-16", "2026-03-17"],
    ["weekly on a Monday is the week before", "weekly", { today: "2026-03-16" }, "2026-03-09", "2026-03-15"],
    [
      "weekly on a Monday, today allowed",
      "weekly",
      { today: "2026-03-16", allowToday: true },
      "2026-03-16",
      "2026-03-16",
    ],
    ["last 30 days", "last_30_days", { today }, "2026-02-16", "2026-03-17"],
    ["last 30 days, today allowed", "last_30_days", { today, allowToday: true }, "2026-02-17", "2026-03-18"],
    ["last 7 days", "last_7_days", { today }, "2026-03-11", "2026-03-17"],
    ["last 7 days, today allowed", "last_7_days", { today, allowToday: true }, "2026-03-12", "2026-03-18"],
    ["last month", "last_month", { today }, "2026-02-01", "2026-02-28"],
    ["last month across a year", "last_month", { today: "2026-01-01" }, "2025-12-01", "2025-12-31"],
    ["last month in a leap year", "last_month", { today: "2024-03-05" }, "2024-02-01", "2024-02-29"],
    ["mid-monthly after the 15th", "mid_monthly", { today }, "2026-03-15", "2026-03-17"],
    ["mid-monthly before the 15th", "mid_monthly", { today: "2026-03-10" }, "2026-02-15", "2026-03-09"],
    ["mid-monthly whole period", "mid_monthly", { today: "2026-03-15" }, "2026-02-15", "2026-03-14"],
    ["mid-monthly first day", "mid_monthly", { today: "2026-03-16" }, "2026-03-15", "2026-03-15"],
    ["mid-monthly across a year", "mid_monthly", { today: "2026-01-10" }, "2025-12-15", "2026-01-09"],
    ["daily", "daily", { today }, "2026-03-17", "2026-03-17"],
    ["daily, today allowed", "daily", { today, allowToday: true }, "2026-03-18", "2026-03-18"],
  ])("%s", (_label, type, limits, startDate, endDate) => {
    expect(rangeForType(type, limits)).toEqual({ startDate, endDate });
  });

  it.each<[PresetRangeType, number]>([
    ["last_30_days", 30],
    ["last_7_days", 7],
    ["daily", 1],
  ])("%s spans %i days inclusive", (type, days) => {
    expect(rangeLength(rangeForType(type, { today }))).toBe(days);
  });
});

describe("defaultCompareRange (docs/product.md §4)", () => {
  it.each([
    ["31-day month", "2026-03-01", "2026-03-31", "2026-01-29", "2026-02-28"],
    ["28-day month", "2026-02-01", "2026-02-28", "2026-01-04", "2026-01-31"],
    ["single day", "2026-03-17", "2026-03-17", "2026-03-16", "2026-03-16"],
    ["across a year", "2026-01-01", "2026-01-07", "2025-12-25", "2025-12-31"],
    ["leap day", "2024-03-01", "2024-03-10", "2024-02-20", "2024-02-29"],
    ["across a DST change", "2026-03-01", "2026-03-15", "2026-02-14", "2026-02-28"],
  ])("%s", (_label, start, end, compareStart, compareEnd) => {
    expect(defaultCompareRange(start, end)).toEqual({ startDate: compareStart, endDate: compareEnd });
  });
});

describe("normaliseRange (docs/product.md §5)", () => {
  const none = { compareStartDate: null, compareEndDate: null };
  it.each([
    [
      "end before start swaps",
      { startDate: "2026-03-10", endDate: "2026-03-01" },
      { today },
      ["2026-03-01", "2026-03-10", null, null],
    ],
    [
      "clamped to yesterday",
      { startDate: "2026-03-10", endDate: "2026-03-20" },
      { today },
      ["2026-03-10", "2026-03-17", null, null],
    ],
    [
      "clamped to today when allowed",
      { startDate: "2026-03-10", endDate: "2026-03-20" },
      { today, allowToday: true },
      ["2026-03-10", "2026-03-18", null, null],
    ],
    [
      "wholly future collapses to max",
      { startDate: "2026-03-19", endDate: "2026-03-25" },
      { today },
      ["2026-03-17", "2026-03-17", null, null],
    ],
    [
      "clamped to min",
      { startDate: "2025-12-20", endDate: "2026-01-05" },
      { today, minDate: "2026-01-01" },
      ["2026-01-01", "2026-01-05", null, null],
    ],
    [
      "explicit max",
      { startDate: "2026-01-20", endDate: "2026-03-05" },
      { today, maxDate: "2026-02-28" },
      ["2026-01-20", "2026-02-28", null, null],
    ],
    [
      "compare end clamped to main end",
      { startDate: "2026-03-01", endDate: "2026-03-10", compareStartDate: "2026-03-05", compareEndDate: "2026-03-15" },
      { today },
      ["2026-03-01", "2026-03-10", "2026-03-05", "2026-03-10"],
    ],
    [
      "compare after main collapses to main end",
      { startDate: "2026-03-01", endDate: "2026-03-10", compareStartDate: "2026-03-12", compareEndDate: "2026-03-15" },
      { today },
      ["2026-03-01", "2026-03-10", "2026-03-10", "2026-03-10"],
    ],
    [
      "compare swaps",
      { startDate: "2026-03-01", endDate: "2026-03-10", compareStartDate: "2026-02-10", compareEndDate: "2026-02-01" },
      { today },
      ["2026-03-01", "2026-03-10", "2026-02-01", "2026-02-10"],
    ],
    [
      "compare before main kept",
      { startDate: "2026-03-01", endDate: "2026-03-10", compareStartDate: "2026-02-01", compareEndDate: "2026-02-10" },
      { today },
      ["2026-03-01", "2026-03-10", "2026-02-01", "2026-02-10"],
    ],
    [
      "unset dates stay unset",
      { startDate: null, endDate: "2026-03-05", ...none },
      { today },
      [null, "2026-03-05", null, null],
    ],
  ] as const)("%s", (_label, range, limits, [startDate, endDate, compareStartDate, compareEndDate]) => {
    expect(normaliseRange(range, limits)).toEqual({ startDate, endDate, compareStartDate, compareEndDate });
  });

  it("keeps other fields of the range", () => {
    const range: DashboardDateRange = {
      rangeType: "custom",
      startDate: "2026-03-20",
      endDate: "2026-03-01",
      compareStartDate: null,
      compareEndDate: null,
      customCompare: false,
    };
    expect(normaliseRange(range, { today })).toMatchObject({ rangeType: "custom", customCompare: false });
  });
});

describe("canApply (docs/product.md §5)", () => {
  it.each([
    ["both dates set", { startDate: "2026-03-01", endDate: "2026-03-10" }, true],
    ["start missing", { startDate: null, endDate: "2026-03-10" }, false],
    ["end missing", { startDate: "2026-03-01", endDate: null }, false],
    ["invalid day", { startDate: "2026-02-30", endDate: "2026-03-10" }, false],
    ["custom compare unset", { startDate: "2026-03-01", endDate: "2026-03-10", customCompare: true }, false],
    [
      "custom compare half set",
      { startDate: "2026-03-01", endDate: "2026-03-10", customCompare: true, compareStartDate: "2026-02-01" },
      false,
    ],
    [
      "custom compare set",
      {
        startDate: "2026-03-01",
        endDate: "2026-03-10",
        customCompare: true,
        compareStartDate: "2026-02-01",
        compareEndDate: "2026-02-10",
      },
      true,
    ],
    [
      "compare not needed without custom compare",
      { startDate: "2026-03-01", endDate: "2026-03-10", customCompare: false },
      true,
    ],
  ])("%s → %s", (_label, range, expected) => {
    expect(canApply(range)).toBe(expected);
  });
});

const customRange: DashboardDateRange = {
  rangeType: "custom",
  startDate: "2026-01-05",
  endDate: "2026-01-20",
  compareStartDate: "2025-01-05",
  compareEndDate: "2025-01-20",
  customCompare: true,
};

describe("switchRangeType (docs/product.md §4)", () => {
  it.each<[string, PresetRangeType, Partial<DashboardDateRange>]>([
    [
      "last 7 days recomputes dates and compare, custom compare off",
      "last_7_days",
      { startDate: "2026-03-11", endDate: "2026-03-17", compareStartDate: "2026-03-04", compareEndDate: "2026-03-10" },
    ],
    [
      "last month",
      "last_month",
      { startDate: "2026-02-01", endDate: "2026-02-28", compareStartDate: "2026-01-04", compareEndDate: "2026-01-31" },
    ],
    [
      "daily",
      "daily",
      { startDate: "2026-03-17", endDate: "2026-03-17", compareStartDate: "2026-03-16", compareEndDate: "2026-03-16" },
    ],
  ])("%s", (_label, type, expected) => {
    expect(switchRangeType(customRange, type, { today })).toEqual({
      rangeType: type,
      customCompare: false,
      ...expected,
    });
  });

  it("switching to custom keeps dates and custom compare", () => {
    const monthly = { ...customRange, rangeType: "monthly" as const };
    expect(switchRangeType(monthly, "custom", { today })).toEqual(customRange);
  });
});

describe("effectiveCompareRange", () => {
  it.each<[string, DashboardDateRange, { startDate: string; endDate: string } | null]>([
    ["custom compare used", customRange, { startDate: "2025-01-05", endDate: "2025-01-20" }],
    [
      "custom compare off uses default",
      { ...customRange, customCompare: false },
      { startDate: "2025-12-20", endDate: "2026-01-04" },
    ],
    [
      "custom compare unset uses default",
      { ...customRange, compareEndDate: null },
      { startDate: "2025-12-20", endDate: "2026-01-04" },
    ],
    ["no main range", { ...customRange, startDate: null }, null],
  ])("%s", (_label, range, expected) => {
    expect(effectiveCompareRange(range)).toEqual(expected);
  });
});

describe("day helpers", () => {
  it.each([
    ["2026-02-28", true],
    ["2026-02-29", false],
    ["2024-02-29", true],
    ["2026-13-01", false],
    ["2026-1-05", false],
    ["", false],
    [null, false],
  ])("isValidDay(%s) → %s", (value, expected) => {
    expect(isValidDay(value)).toBe(expected);
  });

  it.each([
    ["2026-03-29", "2026-03-29"],
    ["0099-12-31", "0099-12-31"],
    ["2026-04-31", null],
    ["2026-00-10", null],
    ["2026-03-29T00:00", null],
    [" 2026-03-29", null],
  ])("parseDay(%s) is a local-midnight day, or Invalid Date (%s)", (value, expected) => {
    const date = parseDay(value);
    if (expected === null) expect(Number.isNaN(date.getTime())).toBe(true);
    else expect([formatDay(date), date.getHours(), date.getMinutes()]).toEqual([expected, 0, 0]);
  });

  it.each([
    ["2026-03-01", -1, "2026-02-28"],
    ["2026-12-31", 1, "2027-01-01"],
    ["2026-03-28", 3, "2026-03-31"],
  ])("shiftDay(%s, %i) → %s", (day, amount, expected) => {
    expect(shiftDay(day, amount)).toBe(expected);
  });

  it.each([
    ["2026-03-01", "2026-03-31", 30],
    ["2026-03-31", "2026-03-01", -30],
    ["2026-10-20", "2026-11-05", 16],
  ])("daysBetween(%s, %s) → %i", (from, to, expected) => {
    expect(daysBetween(from, to)).toBe(expected);
  });

  it.each([
    ["UTC", "2026-03-18T23:30:00Z", "2026-03-18"],
    ["Pacific/Auckland", "2026-03-18T23:30:00Z", "2026-03-19"],
    ["America/Los_Angeles", "2026-03-18T03:00:00Z", "2026-03-17"],
    ["Not/AZone", "2026-03-18T23:30:00Z", "2026-03-18"],
  ])("todayInTimezone(%s) at %s → %s", (zone, instant, expected) => {
    expect(todayInTimezone(zone, new Date(instant))).toBe(expected);
  });
});
