import { describe, expect, it } from "vitest";
import { comparisonLabel, PREVIOUS_PERIOD_LABEL } from "./display";

describe("comparisonLabel", () => {
  it.each([
    ["2026-10-01", "2026-10-14", undefined, "vs Oct 1 – Oct 14"],
    ["2026-10-01", "2026-10-14", 2026, "vs Oct 1 – Oct 14"],
    ["2025-10-01", "2025-10-14", 2026, "vs Oct 1, 2025 – Oct 14, 2025"],
    ["2025-12-28", "2026-01-03", undefined, "vs Dec 28, 2025 – Jan 3, 2026"],
    ["2026-03-05", "2026-03-05", 2026, "vs Mar 5"],
    [null, null, 2026, PREVIOUS_PERIOD_LABEL],
    ["2026-10-01", null, 2026, PREVIOUS_PERIOD_LABEL],
    ["not a day", "2026-10-14", 2026, PREVIOUS_PERIOD_LABEL],
  ])("%s – %s (current year %s) → %s", (start, end, year, expected) => {
    expect(comparisonLabel(start, end, year)).toBe(expected);
  });
});
