import { describe, expect, it } from "vitest";
import type { GoalProgress } from "./pace";
import { goalLine, goalLineParts, goalsSummary } from "./sentence";

const progress = (overrides: Partial<GoalProgress>): GoalProgress => ({
  threshold: 70000,
  value: 58439,
  progress: 58439 / 70000,
  projected: 64087.3,
  onTrack: false,
  status: "short",
  gapPercent: ((64087.3 - 70000) / 70000) * 100,
  daysTotal: 30,
  daysLeft: 3,
  dataThrough: "2026-11-27",
  settledThrough: "2026-11-27",
  ...overrides,
});

const NUMBER = { format: "number" as const, currency: null };

describe("goalLine", () => {
  it.each<
    [string, Partial<GoalProgress>, typeof NUMBER | { format: "money" | "percent"; currency: string | null }, string]
  >([
    ["the issue's example", {}, NUMBER, "58,439 of 70,000 (83 %) · 3 days left · on pace for 64,100, 8 % short"],
    ["one day left", { daysLeft: 1 }, NUMBER, "58,439 of 70,000 (83 %) · 1 day left · on pace for 64,100, 8 % short"],
    [
      "ahead",
      { projected: 75400, status: "ahead", onTrack: true, gapPercent: 7.7 },
      NUMBER,
      "58,439 of 70,000 (83 %) · 3 days left · on pace for 75,400, 8 % ahead",
    ],
    [
      "met",
      { value: 71000, progress: 71000 / 70000, status: "met", gapPercent: 1.4 },
      NUMBER,
      "71,000 of 70,000 (101 %) · 3 days left · target met",
    ],
    [
      "ended short",
      { daysLeft: 0, projected: 58439, gapPercent: -16.5 },
      NUMBER,
      "58,439 of 70,000 (83 %) · ended · 17 % short",
    ],
    [
      "a budget in dollars, on pace to stay under",
      { threshold: 5000, value: 3000, progress: 0.6, projected: 4500, status: "under", onTrack: true, gapPercent: -10 },
      { format: "money", currency: "USD" },
      "$3,000.00 of $5,000.00 (60 %) · 3 days left · on pace for $4,500.00, 10 % under",
    ],
    [
      "a bounce rate over its cap",
      { threshold: 40, value: 44, progress: 1.1, projected: 44.5, status: "over", gapPercent: 11.25 },
      { format: "percent", currency: null },
      "44% of 40% (110 %) · 3 days left · on pace for 44.5%, 11 % over",
    ],
    [
      "no data yet",
      { value: null, progress: null, projected: null, status: "unknown", gapPercent: null },
      NUMBER,
      "No data yet of 70,000 · 3 days left · too little data for a pace",
    ],
    [
      "a change goal without a comparison value",
      { threshold: null, progress: null, status: "unknown", gapPercent: null },
      NUMBER,
      "58,439 · 3 days left",
    ],
    [
      "a gap under one percent",
      { gapPercent: -0.3 },
      NUMBER,
      "58,439 of 70,000 (83 %) · 3 days left · on pace for 64,100, <1 % short",
    ],
  ])("%s", (_name, overrides, metric, expected) => {
    expect(goalLine(progress(overrides), metric)).toBe(expected);
  });

  it("gives the same words as parts for a view that lays them out", () => {
    expect(goalLineParts(progress({}), NUMBER)).toEqual({
      progress: "58,439 of 70,000 (83 %)",
      time: "3 days left",
      pace: "on pace for 64,100, 8 % short",
    });
  });
});

describe("goalsSummary", () => {
  it.each<[string, Parameters<typeof goalsSummary>[0], string | null]>([
    [
      "two of five on track, the furthest off named",
      [
        { label: "Sessions", status: "ahead", gapPercent: 4 },
        { label: "Revenue", status: "short", gapPercent: -12 },
        { label: "Leads", status: "met", gapPercent: 3 },
        { label: "Cost", status: "over", gapPercent: 5 },
        { label: "Clicks", status: "short", gapPercent: -2 },
      ],
      "2 of 5 goals on track; Revenue 12 % short",
    ],
    ["all on track", [{ label: "Sessions", status: "ahead", gapPercent: 4 }], "1 of 1 goal on track"],
    [
      "goals without a verdict are not counted",
      [
        { label: "Sessions", status: "unknown", gapPercent: null },
        { label: "Cost", status: "over", gapPercent: 20 },
      ],
      "0 of 1 goal on track; Cost 20 % over",
    ],
    ["nothing to say", [{ label: "Sessions", status: "unknown", gapPercent: null }], null],
    ["no goals", [], null],
  ])("%s", (_name, goals, expected) => {
    expect(goalsSummary(goals)).toBe(expected);
  });
});
