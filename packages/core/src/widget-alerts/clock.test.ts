import { describe, expect, it } from "vitest";
import { widgetAlertClock, widgetAlertPeriod } from "./clock";

const LA = "America/Los_Angeles";
const KIRITIMATI = "Pacific/Kiritimati";

describe("widgetAlertClock: a pass judges on the company's today", () => {
  it.each([
    // At 03:00 UTC on Sun 29 Nov 2026, Los Angeles (UTC−8) is still at 19:00 on Saturday the 28th.
    ["UTC, after its midnight", "2026-11-29T03:00:00Z", "UTC", "UTC", "2026-11-29", "2026-11-28"],
    ["Los Angeles, before its midnight", "2026-11-29T03:00:00Z", LA, LA, "2026-11-28", "2026-11-27"],
    ["Los Angeles, a second before its midnight", "2026-11-29T07:59:59Z", LA, LA, "2026-11-28", "2026-11-27"],
    ["Los Angeles, at its midnight", "2026-11-29T08:00:00Z", LA, LA, "2026-11-29", "2026-11-28"],
    ["Kiritimati (UTC+14), a day ahead", "2026-11-28T12:00:00Z", KIRITIMATI, KIRITIMATI, "2026-11-29", "2026-11-28"],
    ["no zone: UTC", "2026-11-29T03:00:00Z", null, "UTC", "2026-11-29", "2026-11-28"],
    ["an unknown zone: UTC", "2026-11-29T03:00:00Z", "Mars/Olympus_Mons", "UTC", "2026-11-29", "2026-11-28"],
  ])("%s", (_name, now, companyZone, zone, today, lastDay) => {
    expect(widgetAlertClock(new Date(now), companyZone)).toEqual({ zone, today, lastDay });
  });
});

describe("widgetAlertPeriod: the dashboard's period on the company's today", () => {
  it.each([
    // The same instant, two companies: each judges the week its own dashboard shows.
    ["last 7 days, UTC", "last_7_days", "2026-11-29T03:00:00Z", "UTC", "2026-11-22", "2026-11-28"],
    ["last 7 days, Los Angeles", "last_7_days", "2026-11-29T03:00:00Z", LA, "2026-11-21", "2026-11-27"],
    // Across a month's end: UTC has finished November, Los Angeles has one day of it left.
    ["this month, UTC on 1 December", "monthly", "2026-12-01T05:00:00Z", "UTC", "2026-11-01", "2026-11-30"],
    ["this month, Los Angeles still on 30 November", "monthly", "2026-12-01T05:00:00Z", LA, "2026-11-01", "2026-11-29"],
    // Across a week's start (weeks start on Monday): Monday 30 Nov in UTC, still Sunday in Los Angeles.
    ["this week, UTC on Monday", "weekly", "2026-11-30T03:00:00Z", "UTC", "2026-11-23", "2026-11-29"],
    ["this week, Los Angeles on Sunday", "weekly", "2026-11-30T03:00:00Z", LA, "2026-11-23", "2026-11-28"],
    // A custom (fixed) range is judged over the fallback, the last 30 days.
    ["custom, Los Angeles", "custom", "2026-11-29T03:00:00Z", LA, "2026-10-29", "2026-11-27"],
    ["an unknown range type, UTC", "nonsense", "2026-11-29T03:00:00Z", "UTC", "2026-10-30", "2026-11-28"],
  ])("%s", (_name, rangeType, now, zone, startDate, endDate) => {
    const { today } = widgetAlertClock(new Date(now), zone);
    expect(widgetAlertPeriod(rangeType, today)).toEqual({ startDate, endDate });
  });
});
