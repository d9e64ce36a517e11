import { describe, expect, it } from "vitest";
import { daysInMonth, instantOfWallTime, isValidTimeZone, normaliseTimeZone, wallTimeAt, weekdayOf } from "./zone";

describe("normaliseTimeZone", () => {
  it.each([
    ["Europe/Berlin", "Europe/Berlin"],
    ["europe/berlin", "Europe/Berlin"],
    ["  Pacific/Auckland ", "Pacific/Auckland"],
    ["UTC", "UTC"],
    ["US/Eastern", "US/Eastern"],
    ["Asia/Kolkata", "Asia/Kolkata"],
    ["Mars/Olympus", null],
    ["+05:00", null],
    ["", null],
    [42, null],
    [null, null],
  ])("%o → %o", (value, expected) => {
    expect(normaliseTimeZone(value)).toBe(expected);
    expect(isValidTimeZone(value)).toBe(expected !== null);
  });
});

describe("instantOfWallTime", () => {
  it.each([
    ["a plain winter time", "America/New_York", [2026, 1, 15, 8, 0], "2026-01-15T13:00:00Z"],
    ["a plain summer time", "America/New_York", [2026, 7, 15, 8, 0], "2026-07-15T12:00:00Z"],
    ["in the spring gap: the jump", "America/New_York", [2026, 3, 8, 2, 30], "2026-03-08T07:00:00Z"],
    ["at the gap's start: the jump", "America/New_York", [2026, 3, 8, 2, 0], "2026-03-08T07:00:00Z"],
    ["the gap's end exists", "America/New_York", [2026, 3, 8, 3, 0], "2026-03-08T07:00:00Z"],
    ["just before the gap", "America/New_York", [2026, 3, 8, 1, 59], "2026-03-08T06:59:00Z"],
    ["repeated hour: the first", "America/New_York", [2026, 11, 1, 1, 30], "2026-11-01T05:30:00Z"],
    ["Lord Howe's 30-minute gap", "Australia/Lord_Howe", [2026, 10, 4, 2, 15], "2026-10-03T15:30:00Z"],
    ["Kathmandu +05:45", "Asia/Kathmandu", [2026, 1, 1, 8, 0], "2026-01-01T02:15:00Z"],
    ["Havana's midnight gap", "America/Havana", [2026, 3, 8, 0, 30], "2026-03-08T05:00:00Z"],
  ] as const)("%s", (_name, zone, [year, month, day, hour, minute], expected) => {
    expect(instantOfWallTime({ year, month, day, hour, minute }, zone).toISOString()).toBe(
      new Date(expected).toISOString(),
    );
  });

  it("reads back what it was given whenever the wall time exists", () => {
    const wall = { year: 2028, month: 2, day: 29, hour: 23, minute: 59 };
    for (const zone of ["UTC", "Pacific/Auckland", "America/New_York", "Europe/London", "Asia/Kathmandu"]) {
      expect(wallTimeAt(instantOfWallTime(wall, zone), zone)).toEqual(wall);
    }
  });

  it("throws on an unknown zone", () => {
    expect(() => instantOfWallTime({ year: 2026, month: 1, day: 1, hour: 0, minute: 0 }, "Nowhere/Place")).toThrow(
      RangeError,
    );
    expect(() => wallTimeAt(new Date(), "Nowhere/Place")).toThrow(RangeError);
  });
});

describe("calendar helpers", () => {
  it("knows month lengths, leap years and weekdays", () => {
    expect([daysInMonth(2026, 2), daysInMonth(2028, 2), daysInMonth(2100, 2), daysInMonth(2026, 12)]).toEqual([
      28, 29, 28, 31,
    ]);
    expect([weekdayOf(2026, 8, 1), weekdayOf(2026, 11, 1), weekdayOf(2028, 2, 29)]).toEqual([6, 0, 2]);
  });
});
