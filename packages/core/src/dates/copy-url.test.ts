import { describe, expect, it } from "vitest";
import {
  buildCopyUrl,
  COPIED_DURATION_MS,
  COPIED_MESSAGE,
  type CopyUrlParams,
  type CopyUrlRange,
  copyUrlParams,
  isWholeMonth,
  rangeFromUrlParams,
} from "./copy-url";
import { formatDisplayDate, rangeText, singleDateText, yearOptions } from "./display";

describe("copyUrlParams (docs/product.md §2)", () => {
  it.each<[string, CopyUrlRange, CopyUrlParams]>([
    [
      "whole month with default compare",
      { startDate: "2026-01-01", endDate: "2026-01-31", compareStartDate: "2025-12-01", compareEndDate: "2025-12-31" },
      { month: "1", year: "2026" },
    ],
    [
      "whole month without compare dates",
      { startDate: "2025-12-01", endDate: "2025-12-31" },
      { month: "12", year: "2025" },
    ],
    [
      "28-day month's default compare is 28 days before",
      { startDate: "2026-02-01", endDate: "2026-02-28", compareStartDate: "2026-01-04", compareEndDate: "2026-01-31" },
      { month: "2", year: "2026" },
    ],
    [
      "whole month with custom compare keeps both",
      { startDate: "2026-02-01", endDate: "2026-02-28", compareStartDate: "2026-01-01", compareEndDate: "2026-01-31" },
      { month: "2", year: "2026", compareStartDate: "2026-01-01", compareEndDate: "2026-01-31" },
    ],
    [
      "partial month with default compare",
      { startDate: "2026-03-01", endDate: "2026-03-17", compareStartDate: "2026-02-12", compareEndDate: "2026-02-28" },
      { startDate: "2026-03-01", endDate: "2026-03-17" },
    ],
    [
      "partial month with custom compare",
      { startDate: "2026-03-01", endDate: "2026-03-17", compareStartDate: "2025-03-01", compareEndDate: "2025-03-17" },
      { startDate: "2026-03-01", endDate: "2026-03-17", compareStartDate: "2025-03-01", compareEndDate: "2025-03-17" },
    ],
    [
      "custom compare switched off ignores stored compare dates",
      {
        startDate: "2026-01-01",
        endDate: "2026-01-31",
        compareStartDate: "2025-01-01",
        compareEndDate: "2025-01-31",
        customCompare: false,
      },
      { month: "1", year: "2026" },
    ],
    [
      "month not starting on the 1st",
      { startDate: "2026-01-02", endDate: "2026-01-31" },
      { startDate: "2026-01-02", endDate: "2026-01-31" },
    ],
    [
      "two whole months",
      { startDate: "2026-01-01", endDate: "2026-02-28" },
      { startDate: "2026-01-01", endDate: "2026-02-28" },
    ],
    ["leap February", { startDate: "2024-02-01", endDate: "2024-02-29" }, { month: "2", year: "2024" }],
    [
      "February cut at the 28th in a leap year",
      { startDate: "2024-02-01", endDate: "2024-02-28" },
      { startDate: "2024-02-01", endDate: "2024-02-28" },
    ],
  ])("%s", (_label, range, expected) => {
    expect(copyUrlParams(range)).toEqual(expected);
  });

  it("has the product's confirmation", () => {
    expect([COPIED_MESSAGE, COPIED_DURATION_MS]).toEqual(["Copied successfully", 750]);
  });

  it.each([
    [{ startDate: "2026-04-01", endDate: "2026-04-30" }, true],
    [{ startDate: "2026-04-01", endDate: "2026-04-29" }, false],
    [{ startDate: "2026-04-02", endDate: "2026-04-30" }, false],
  ])("isWholeMonth(%o) → %s", (range, expected) => {
    expect(isWholeMonth(range)).toBe(expected);
  });
});

describe("rangeFromUrlParams", () => {
  it.each<[string, Record<string, unknown>, [string, string, string, string, boolean] | null]>([
    ["month and year", { month: "1", year: "2026" }, ["2026-01-01", "2026-01-31", "2025-12-01", "2025-12-31", false]],
    [
      "zero-padded month",
      { month: "02", year: "2026" },
      ["2026-02-01", "2026-02-28", "2026-01-04", "2026-01-31", false],
    ],
    [
      "month wins over start and end",
      { month: "3", year: "2026", startDate: "2026-01-01", endDate: "2026-01-02" },
      ["2026-03-01", "2026-03-31", "2026-01-29", "2026-02-28", false],
    ],
    ["month out of range", { month: "13", year: "2026" }, null],
    [
      "bad month falls back to start and end",
      { month: "13", year: "2026", startDate: "2026-03-01", endDate: "2026-03-17" },
      ["2026-03-01", "2026-03-17", "2026-02-12", "2026-02-28", false],
    ],
    [
      "start and end",
      { startDate: "2026-03-01", endDate: "2026-03-17" },
      ["2026-03-01", "2026-03-17", "2026-02-12", "2026-02-28", false],
    ],
    [
      "reversed start and end swap",
      { startDate: "2026-03-17", endDate: "2026-03-01" },
      ["2026-03-01", "2026-03-17", "2026-02-12", "2026-02-28", false],
    ],
    ["invalid day", { startDate: "2026-02-30", endDate: "2026-03-17" }, null],
    ["nothing", {}, null],
    [
      "custom compare",
      { startDate: "2026-03-01", endDate: "2026-03-17", compareStartDate: "2025-03-01", compareEndDate: "2025-03-17" },
      ["2026-03-01", "2026-03-17", "2025-03-01", "2025-03-17", true],
    ],
    [
      "compare equal to the default is not custom",
      { startDate: "2026-03-01", endDate: "2026-03-17", compareStartDate: "2026-02-12", compareEndDate: "2026-02-28" },
      ["2026-03-01", "2026-03-17", "2026-02-12", "2026-02-28", false],
    ],
    [
      "half a compare pair is ignored",
      { startDate: "2026-03-01", endDate: "2026-03-17", compareStartDate: "2025-03-01" },
      ["2026-03-01", "2026-03-17", "2026-02-12", "2026-02-28", false],
    ],
    [
      "array query values",
      { startDate: ["2026-03-01"], endDate: ["2026-03-17"] },
      ["2026-03-01", "2026-03-17", "2026-02-12", "2026-02-28", false],
    ],
  ])("%s", (_label, params, expected) => {
    const range = rangeFromUrlParams(params);
    if (expected === null) {
      expect(range).toBeNull();
      return;
    }
    const [startDate, endDate, compareStartDate, compareEndDate, customCompare] = expected;
    expect(range).toEqual({ rangeType: "custom", startDate, endDate, compareStartDate, compareEndDate, customCompare });
  });

  it("reads a URLSearchParams-like source", () => {
    const query: Record<string, string> = { month: "12", year: "2025" };
    const range = rangeFromUrlParams({ get: (name: string) => query[name] ?? null });
    expect([range?.startDate, range?.endDate]).toEqual(["2025-12-01", "2025-12-31"]);
  });

  it.each<[CopyUrlRange]>([
    [{ startDate: "2026-01-01", endDate: "2026-01-31", compareStartDate: "2025-01-01", compareEndDate: "2025-01-31" }],
    [{ startDate: "2026-03-03", endDate: "2026-03-09", compareStartDate: "2026-02-24", compareEndDate: "2026-03-02" }],
    [{ startDate: "2026-03-03", endDate: "2026-03-09", compareStartDate: "2025-03-03", compareEndDate: "2025-03-09" }],
  ])("round-trips %o", (range) => {
    const restored = rangeFromUrlParams(copyUrlParams(range) as Record<string, string>);
    expect(restored).toMatchObject(range);
  });
});

describe("buildCopyUrl", () => {
  it.each([
    [
      "adds start and end",
      "https://app.test/dashboards/abc",
      { startDate: "2026-03-01", endDate: "2026-03-17" },
      "https://app.test/dashboards/abc?startDate=2026-03-01&endDate=2026-03-17",
    ],
    [
      "replaces stale dates, keeps other params and hash",
      "https://app.test/dashboards/abc?startDate=2020-01-01&foo=1&compareEndDate=x#top",
      { startDate: "2026-01-01", endDate: "2026-01-31" },
      "https://app.test/dashboards/abc?foo=1&month=1&year=2026#top",
    ],
  ])("%s", (_label, href, range, expected) => {
    expect(buildCopyUrl(href, range)).toBe(expected);
  });
});

describe("display helpers (docs/product.md §2, §9)", () => {
  it.each([
    ["2026-01-05", "Jan 05, 2026"],
    ["2025-12-31", "Dec 31, 2025"],
    ["", ""],
    [null, ""],
    ["2026-13-01", ""],
  ])("formatDisplayDate(%s) → %s", (day, expected) => {
    expect(formatDisplayDate(day)).toBe(expected);
  });

  it.each([
    ["2026-01-05", "Jan 05, 2026"],
    [null, "Select date"],
  ])("singleDateText(%s) → %s", (day, expected) => {
    expect(singleDateText(day)).toBe(expected);
  });

  it.each([
    ["2026-01-01", "2026-01-31", "Jan 01, 2026 - Jan 31, 2026"],
    ["2026-01-05", "2026-01-05", "Jan 05, 2026"],
    ["2026-01-05", null, "Set date range"],
    [null, null, "Set date range"],
  ])("rangeText(%s, %s) → %s", (start, end, expected) => {
    expect(rangeText(start, end)).toBe(expected);
  });

  it.each([
    ["2026-03-18", 2021, 2032],
    ["2030-01-01", 2025, 2036],
  ])("yearOptions(%s) spans %i..%i", (today, first, last) => {
    const years = yearOptions(today);
    expect([years[0], years.at(-1), years.length]).toEqual([first, last, 12]);
  });
});
