import { describe, expect, it } from "vitest";
import { dueDigestPeriod } from "./digest";

describe("dueDigestPeriod", () => {
  // 2026-11-23 is a Monday.
  it.each([
    ["off never mails", "off", "2026-11-26T12:00:00Z", "UTC", null],
    ["daily before 08:00 local: not yet", "daily", "2026-11-26T07:59:00Z", "UTC", null],
    ["daily from 08:00 local", "daily", "2026-11-26T08:00:00Z", "UTC", "daily:2026-11-26"],
    ["daily late in the day: still that day's", "daily", "2026-11-26T23:30:00Z", "UTC", "daily:2026-11-26"],
    // 07:30 UTC is 08:30 in Berlin (UTC+1 in November): due there, not in London.
    ["the company's zone decides", "daily", "2026-11-26T07:30:00Z", "Europe/Berlin", "daily:2026-11-26"],
    ["…and London is not yet due", "daily", "2026-11-26T07:30:00Z", "Europe/London", null],
    // 02:00 UTC on the 27th is still the 26th in New York.
    ["the local date names the period", "daily", "2026-11-27T02:00:00Z", "America/New_York", "daily:2026-11-26"],
    [
      "weekly on Monday before 08:00: last week's period is over, this one not yet due",
      "weekly",
      "2026-11-23T06:00:00Z",
      "UTC",
      null,
    ],
    ["weekly on Monday from 08:00", "weekly", "2026-11-23T08:00:00Z", "UTC", "weekly:2026-11-23"],
    [
      "weekly later in the week: the same Monday's period",
      "weekly",
      "2026-11-26T15:00:00Z",
      "UTC",
      "weekly:2026-11-23",
    ],
    ["weekly on Sunday night: still that week", "weekly", "2026-11-29T23:59:00Z", "UTC", "weekly:2026-11-23"],
    ["weekly across a month end", "weekly", "2026-12-02T09:00:00Z", "UTC", "weekly:2026-11-30"],
    // Sunday 23:30 UTC is Monday 08:30 in Tokyo.
    ["weekly in a zone ahead of UTC", "weekly", "2026-11-29T23:30:00Z", "Asia/Tokyo", "weekly:2026-11-30"],
  ] as const)("%s", (_name, frequency, now, zone, expected) => {
    expect(dueDigestPeriod(frequency, new Date(now), zone)).toBe(expected);
  });
});
