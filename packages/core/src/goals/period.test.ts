import { describe, expect, it } from "vitest";
import { todayInTimezone } from "../dates/day";
import { type GoalPeriod, goalClock, goalPeriodRange } from "./period";

const range = (startDate: string, endDate: string) => ({ startDate, endDate });

describe("goalPeriodRange", () => {
  it.each<[string, GoalPeriod, ReturnType<typeof range>, ReturnType<typeof range>]>([
    ["a 31-day month", "month", range("2026-10-01", "2026-10-20"), range("2026-10-01", "2026-10-31")],
    ["a 30-day month", "month", range("2026-11-01", "2026-11-27"), range("2026-11-01", "2026-11-30")],
    ["February, 28 days", "month", range("2026-02-01", "2026-02-10"), range("2026-02-01", "2026-02-28")],
    ["February of a leap year, 29 days", "month", range("2028-02-01", "2028-02-10"), range("2028-02-01", "2028-02-29")],
    [
      "the month of the range's last day",
      "month",
      range("2026-10-15", "2026-11-03"),
      range("2026-11-01", "2026-11-30"),
    ],
    ["a week is Monday to Sunday", "week", range("2026-11-01", "2026-11-26"), range("2026-11-23", "2026-11-29")],
    ["a week across two months", "week", range("2026-12-01", "2026-12-02"), range("2026-11-30", "2026-12-06")],
    ["range: the dashboard's own", "range", range("2026-11-01", "2026-11-27"), range("2026-11-01", "2026-11-27")],
    ["change: the dashboard's own", "change", range("2026-11-01", "2026-11-27"), range("2026-11-01", "2026-11-27")],
  ])("%s", (_name, period, shown, expected) => {
    expect(goalPeriodRange(period, shown)).toEqual(expected);
  });
});

describe("goalClock", () => {
  it.each<
    [string, ReturnType<typeof range>, string, { daysTotal: number; dataThrough: string | null; daysLeft: number }]
  >([
    [
      "three days left of November",
      range("2026-11-01", "2026-11-30"),
      "2026-11-28",
      { daysTotal: 30, dataThrough: "2026-11-27", daysLeft: 3 },
    ],
    [
      "the last day: only today is left",
      range("2026-11-01", "2026-11-30"),
      "2026-11-30",
      { daysTotal: 30, dataThrough: "2026-11-29", daysLeft: 1 },
    ],
    [
      "the day after: ended",
      range("2026-11-01", "2026-11-30"),
      "2026-12-01",
      { daysTotal: 30, dataThrough: "2026-11-30", daysLeft: 0 },
    ],
    [
      "long ago: ended",
      range("2026-02-01", "2026-02-28"),
      "2026-11-28",
      { daysTotal: 28, dataThrough: "2026-02-28", daysLeft: 0 },
    ],
    [
      "the first of the month: nothing to show yet",
      range("2026-12-01", "2026-12-31"),
      "2026-12-01",
      { daysTotal: 31, dataThrough: null, daysLeft: 31 },
    ],
    [
      "the second: one day shown",
      range("2026-12-01", "2026-12-31"),
      "2026-12-02",
      { daysTotal: 31, dataThrough: "2026-12-01", daysLeft: 30 },
    ],
  ])("%s", (_name, period, today, expected) => {
    expect(goalClock(period, today)).toEqual(expected);
  });

  it("counts calendar days across a clock change: March 2026 in Berlin has 31 days, one of them 23 hours", () => {
    // 01:30 UTC on 29 March is already 03:30 summer time in Berlin; the viewer's today is that zone's day.
    const today = todayInTimezone("Europe/Berlin", new Date("2026-03-29T22:30:00Z"));
    expect(today).toBe("2026-03-30");
    expect(goalClock(goalPeriodRange("month", range("2026-03-01", "2026-03-29")), today)).toEqual({
      daysTotal: 31,
      dataThrough: "2026-03-29",
      daysLeft: 2,
    });
  });

  it("a week crossing the autumn clock change in New York still has seven days", () => {
    const today = todayInTimezone("America/New_York", new Date("2026-11-02T04:30:00Z"));
    expect(today).toBe("2026-11-01");
    expect(goalClock(goalPeriodRange("week", range("2026-10-26", "2026-10-31")), today)).toEqual({
      daysTotal: 7,
      dataThrough: "2026-10-31",
      daysLeft: 1,
    });
  });
});
