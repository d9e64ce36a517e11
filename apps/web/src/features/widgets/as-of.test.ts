import { describe, expect, it } from "vitest";
import { asOfText } from "./print";

describe("'Data as of' in the dashboard's zone", () => {
  it.each([
    ["2026-11-21T13:05:00.000Z", "Europe/Berlin", "Nov 21, 14:05"],
    ["2026-11-21T13:05:00.000Z", "UTC", "Nov 21, 13:05"],
    ["2026-11-21T23:30:00.000Z", "Pacific/Auckland", "Nov 22, 12:30"],
    ["2026-11-22T03:00:00.000Z", "America/New_York", "Nov 21, 22:00"],
    ["not a date", "UTC", "not a date"],
  ])("%s in %s → %s", (iso, zone, text) => {
    expect(asOfText(iso, zone)).toBe(text);
  });
});
