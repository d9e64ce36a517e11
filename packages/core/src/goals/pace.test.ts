import { describe, expect, it } from "vitest";
import { parseDay, shiftDay } from "../dates/day";
import type { DailyValue } from "../mission-control/change";
import { type GoalInput, type GoalProgress, goalProgress } from "./pace";
import { goalPeriodRange } from "./period";

const weekend = (day: string) => [0, 6].includes(parseDay(day).getDay());

/** Test generator: weekdays 2,000 and weekend days 1,000 (a site's weekly rhythm), from `from` through `to`. */
function weekly(from: string, to: string, weekdayValue = 2000, weekendValue = 1000): DailyValue[] {
  const days: DailyValue[] = [];
  for (let day = from; day <= to; day = shiftDay(day, 1)) {
    days.push({ day, value: weekend(day) ? weekendValue : weekdayValue });
  }
  return days;
}

/** Test generator: the same value every day. */
const flat = (from: string, to: string, value: number) => weekly(from, to, value, value);

/** The late days a lagging provider still fills in: their values cut to a share. */
const partial = (series: DailyValue[], days: string[], share: number) =>
  series.map((point) => (days.includes(point.day) ? { ...point, value: (point.value as number) * share } : point));

const NOVEMBER = goalPeriodRange("month", { startDate: "2026-11-01", endDate: "2026-11-27" });
// 28 November 2026 is a Saturday: numbers through Friday 27th, then Sat, Sun, Mon (1,000 + 1,000 + 2,000) to come.
const TODAY = "2026-11-28";
const HISTORY = weekly("2026-08-01", "2026-11-27");

const base: GoalInput = {
  target: 60000,
  period: "month",
  range: NOVEMBER,
  today: TODAY,
  lagDays: 0,
  aggregation: "sum",
  lowerIsBetter: false,
  series: HISTORY,
};

type Expected = Partial<GoalProgress>;

describe("goalProgress", () => {
  it.each<[string, Partial<GoalInput>, Expected]>([
    [
      "a monthly target the weekly rhythm leaves short (47,000 so far, Sat+Sun+Mon to come)",
      {},
      { value: 47000, projected: 51000, threshold: 60000, status: "short", onTrack: false, daysLeft: 3, daysTotal: 30 },
    ],
    [
      "a target the pace reaches",
      { target: 50000 },
      { projected: 51000, status: "ahead", onTrack: true, gapPercent: 2 },
    ],
    ["a target already met", { target: 40000 }, { status: "met", onTrack: true, gapPercent: 17.5 }],
    [
      "a lagging provider (2 days): Thursday and Friday at a third are topped up to their usual",
      { lagDays: 2, series: partial(HISTORY, ["2026-11-26", "2026-11-27"], 1 / 3) },
      { value: 47000 - 4000 * (2 / 3), projected: 51000, settledThrough: "2026-11-25", status: "short" },
    ],
    [
      "an unsettled day already above its usual keeps its number",
      { lagDays: 1, series: partial(HISTORY, ["2026-11-27"], 1.5) },
      { value: 48000, projected: 52000 },
    ],
    [
      "lower is better, a sum (a budget): on pace to stay under",
      { target: 55000, lowerIsBetter: true },
      { projected: 51000, status: "under", onTrack: true },
    ],
    [
      "lower is better, a sum already past its cap: over whatever comes",
      { target: 45000, lowerIsBetter: true },
      { value: 47000, status: "over", onTrack: false },
    ],
    [
      "lower is better, an average (bounce rate 40 %) under a 45 % cap",
      { target: 45, lowerIsBetter: true, aggregation: "average", series: flat("2026-08-01", "2026-11-27", 40) },
      { value: 40, projected: 40, status: "under", onTrack: true },
    ],
    [
      "lower is better, an average above its cap",
      { target: 35, lowerIsBetter: true, aggregation: "average", series: flat("2026-08-01", "2026-11-27", 40) },
      { status: "over", onTrack: false },
    ],
    [
      "an average uses the provider's total for its value, and moves it as the days move (flat days: it stays)",
      { target: 3, aggregation: "average", total: 2.5, series: flat("2026-08-01", "2026-11-27", 2) },
      { value: 2.5, projected: 2.5, status: "short" },
    ],
    [
      "users (distinct people): the month's total is below the days added up; the pace grows it by the days' ratio",
      // 47,000 users by day so far, 30,000 distinct in the month; the days project to 51,000 (+8.5 %).
      { target: 32000, total: 30000 },
      { value: 30000, projected: (30000 * 51000) / 47000, status: "ahead", onTrack: true },
    ],
    [
      "a sum whose total is its days' sum projects as before",
      { total: 47000 },
      { value: 47000, projected: 51000, status: "short" },
    ],
    [
      "an average above its target mid-month is not met yet (it can still fall)",
      { target: 3, aggregation: "average", series: flat("2026-08-01", "2026-11-27", 4) },
      { status: "ahead", onTrack: true },
    ],
    [
      "February, 28 days",
      {
        range: goalPeriodRange("month", { startDate: "2026-02-01", endDate: "2026-02-20" }),
        today: "2026-02-21",
        series: flat("2025-12-01", "2026-02-20", 100),
        target: 2800,
      },
      { value: 2000, projected: 2800, daysTotal: 28, daysLeft: 8, status: "ahead" },
    ],
    [
      "February of a leap year, 29 days",
      {
        range: goalPeriodRange("month", { startDate: "2028-02-01", endDate: "2028-02-20" }),
        today: "2028-02-21",
        series: flat("2027-12-01", "2028-02-20", 100),
        target: 2950,
      },
      { value: 2000, projected: 2900, daysTotal: 29, daysLeft: 9, status: "short" },
    ],
    [
      "October, 31 days",
      {
        range: goalPeriodRange("month", { startDate: "2026-10-01", endDate: "2026-10-30" }),
        today: "2026-10-31",
        series: flat("2026-08-01", "2026-10-30", 100),
        target: 3100,
      },
      { value: 3000, projected: 3100, daysTotal: 31, daysLeft: 1, status: "ahead" },
    ],
    [
      "a month that ended: the value is the result",
      { today: "2026-12-03", series: weekly("2026-08-01", "2026-11-30") },
      { value: 51000, projected: 51000, daysLeft: 0, status: "short", gapPercent: -15 },
    ],
    [
      "a month that ended on target",
      { today: "2026-12-03", series: weekly("2026-08-01", "2026-11-30"), target: 51000 },
      { status: "met", onTrack: true, gapPercent: 0 },
    ],
    [
      "zero so far with a zero history: progress 0, on pace for 0",
      { series: flat("2026-08-01", "2026-11-27", 0) },
      { value: 0, progress: 0, projected: 0, status: "short", gapPercent: -100 },
    ],
    [
      "no data at all: no value, no pace, no verdict",
      { series: [] },
      { value: null, projected: null, progress: null, status: "unknown", onTrack: null },
    ],
    [
      "the first day of the month: nothing shown yet, the whole month projected from history",
      {
        today: "2026-11-01",
        series: weekly("2026-08-01", "2026-10-31"),
        range: goalPeriodRange("month", { startDate: "2026-11-01", endDate: "2026-11-01" }),
      },
      { value: null, projected: 51000, daysLeft: 30, dataThrough: null, status: "short" },
    ],
    [
      "too little history for the band: a straight run rate of the settled days",
      { series: flat("2026-11-10", "2026-11-27", 100), target: 3000 },
      { value: 1800, projected: 2100, status: "short" },
    ],
    ["a zero target is met by anything", { target: 0 }, { status: "met", progress: null, gapPercent: null }],
    [
      "a change goal: +10 % against a comparison period of 40,000 is 44,000",
      { period: "change", target: 10, baseline: 40000 },
      { threshold: 44000, status: "met" },
    ],
    [
      "a change goal falling short",
      { period: "change", target: 10, baseline: 50000 },
      { threshold: 55000, projected: 51000, status: "short" },
    ],
    [
      "a change goal to cut cost 10 % (lower is better)",
      { period: "change", target: -10, baseline: 60000, lowerIsBetter: true },
      { threshold: 54000, status: "under", onTrack: true },
    ],
    [
      "a change goal without a comparison value has no threshold",
      { period: "change", target: 10, baseline: null },
      { threshold: null, progress: null, status: "unknown", onTrack: null },
    ],
    [
      "a change goal against a zero comparison has no threshold either",
      { period: "change", target: 10, baseline: 0 },
      { threshold: null, status: "unknown" },
    ],
  ])("%s", (_name, overrides, expected) => {
    const result = goalProgress({ ...base, ...overrides });
    for (const [key, value] of Object.entries(expected)) {
      if (typeof value === "number") expect(result[key as keyof GoalProgress], key).toBeCloseTo(value, 6);
      else expect(result[key as keyof GoalProgress], key).toEqual(value);
    }
  });

  it("projects with the weekly rhythm, not a straight line", () => {
    const result = goalProgress(base);
    const straight = (47000 / 27) * 30;
    expect(result.projected).toBe(51000);
    expect(Math.abs((result.projected as number) - straight)).toBeGreaterThan(1000);
  });

  it("follows a growing site's trend instead of its average", () => {
    // +10 a day: a Monday four weeks on is expected ~280 higher than four Mondays ago.
    const growing: DailyValue[] = [];
    for (let day = "2026-08-01", index = 0; day <= "2026-11-27"; day = shiftDay(day, 1), index += 1) {
      growing.push({ day, value: 1000 + 10 * index });
    }
    const result = goalProgress({ ...base, series: growing });
    const last = 1000 + 10 * (growing.length - 1);
    expect(result.projected).toBeCloseTo((result.value as number) + (last + 10) + (last + 20) + (last + 30), 6);
  });
});
