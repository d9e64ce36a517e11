import { describe, expect, it } from "vitest";
import { dayIn, RECENT_RESULT_TTL_MS, storedResultFresh } from "./freshness";

const at = (iso: string) => Date.parse(iso);
const NOW = at("2026-11-25T12:00:00Z");

describe("stored provider results: fresh by the data's age", () => {
  it.each([
    // [case, range end, fetched at, settling days, zone, fresh]
    ["a month long settled, fetched after settling: final", "2026-10-31", "2026-11-05T08:00:00Z", 3, "UTC", true],
    [
      "fetched the day after the range ended: not settled then, so only recent",
      "2026-11-20",
      "2026-11-21T09:00:00Z",
      3,
      "UTC",
      false,
    ],
    ["fetched exactly on the last unsettled day: not final", "2026-11-20", "2026-11-23T23:00:00Z", 3, "UTC", false],
    ["fetched the first settled day: final", "2026-11-20", "2026-11-24T00:30:00Z", 3, "UTC", true],
    ["a range touching today, fetched 5 minutes ago: recent", "2026-11-25", "2026-11-25T11:55:00Z", 3, "UTC", true],
    [
      "a range touching today, fetched 20 minutes ago: ask again",
      "2026-11-25",
      "2026-11-25T11:40:00Z",
      3,
      "UTC",
      false,
    ],
    [
      "Meta's 28 days: a range of two weeks ago is still revised",
      "2026-11-10",
      "2026-11-24T10:00:00Z",
      28,
      "UTC",
      false,
    ],
    [
      "the fetch day is the zone's: 00:30 UTC is still the 23rd in New York",
      "2026-11-20",
      "2026-11-24T00:30:00Z",
      3,
      "America/New_York",
      false,
    ],
    [
      "and in Auckland it is already the 24th at 11:30 UTC on the 23rd",
      "2026-11-20",
      "2026-11-23T11:30:00Z",
      3,
      "Pacific/Auckland",
      true,
    ],
  ])("%s", (_label, rangeEnd, fetched, settling, zone, fresh) => {
    expect(storedResultFresh({ rangeEnd, fetchedAt: at(fetched) }, settling, NOW, zone)).toBe(fresh);
  });

  it("the recent window is 15 minutes", () => {
    expect(RECENT_RESULT_TTL_MS).toBe(900_000);
  });

  it("reads the calendar day in a zone", () => {
    expect(dayIn(at("2026-03-29T00:30:00Z"), "Europe/Berlin")).toBe("2026-03-29");
    expect(dayIn(at("2026-03-28T23:30:00Z"), "Europe/Berlin")).toBe("2026-03-29");
    expect(dayIn(at("2026-03-28T23:30:00Z"), "UTC")).toBe("2026-03-28");
  });
});
