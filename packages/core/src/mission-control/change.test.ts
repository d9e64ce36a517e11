import { describe, expect, it } from "vitest";
import { shiftDay } from "../dates/day";
import { type ChangeWindow, computeChange, type DailyValue } from "./change";
import type { DomainMetricKey } from "./metrics";

const AS_OF = "2026-11-25";

/** A series ending at AS_OF: the last value is AS_OF's, the one before the day before, and so on. */
function endingAtAsOf(values: (number | null)[]): DailyValue[] {
  return values.map((value, index) => ({ day: shiftDay(AS_OF, index - values.length + 1), value }));
}

/** A stock series with only the given days (days back from AS_OF → value). */
function sparse(points: Record<number, number | null>): DailyValue[] {
  return Object.entries(points).map(([back, value]) => ({ day: shiftDay(AS_OF, -Number(back)), value }));
}

const repeat = (value: number | null, days: number) => Array.from({ length: days }, () => value);

describe("computeChange", () => {
  it.each<{
    name: string;
    metric: DomainMetricKey;
    window: ChangeWindow;
    series: DailyValue[];
    current: number | null;
    baseline: number | null;
    change: number | null;
    percent: number | null;
    tone: string;
    asOf?: string | null;
  }>([
    {
      name: "stock: latest day against the day 7 days before",
      metric: "domainRating",
      window: 7,
      series: sparse({ 0: 52, 3: 53, 7: 54, 10: 60 }),
      current: 52,
      baseline: 54,
      change: -2,
      percent: (-2 / 54) * 100,
      tone: "bad",
    },
    {
      name: "stock: the 30-day window looks 30 days back",
      metric: "referringDomains",
      window: 30,
      series: sparse({ 0: 220, 7: 210, 30: 200 }),
      current: 220,
      baseline: 200,
      change: 20,
      percent: 10,
      tone: "good",
    },
    {
      name: "stock: a gap on the baseline day takes the nearest earlier value within tolerance",
      metric: "rankedKeywords",
      window: 7,
      series: sparse({ 0: 110, 6: 999, 9: 100 }),
      current: 110,
      baseline: 100,
      change: 10,
      percent: 10,
      tone: "good",
    },
    {
      name: "stock: nothing near the baseline day means no baseline (N/A), not 0 %",
      metric: "rankedKeywords",
      window: 7,
      series: sparse({ 0: 110, 11: 100 }),
      current: 110,
      baseline: null,
      change: null,
      percent: null,
      tone: "flat",
    },
    {
      name: "stock: a stale latest value moves the as-of day and the baseline with it",
      metric: "domainRating",
      window: 7,
      series: sparse({ 2: 41, 9: 40 }),
      current: 41,
      baseline: 40,
      change: 1,
      percent: 2.5,
      tone: "good",
      asOf: shiftDay(AS_OF, -2),
    },
    {
      name: "stock: no recent value at all",
      metric: "domainRating",
      window: 7,
      series: sparse({ 5: 41, 12: 40 }),
      current: null,
      baseline: null,
      change: null,
      percent: null,
      tone: "flat",
      asOf: null,
    },
    {
      name: "stock: a zero baseline gives an absolute change but no percent",
      metric: "keywordsTop3",
      window: 7,
      series: sparse({ 0: 4, 7: 0 }),
      current: 4,
      baseline: 0,
      change: 4,
      percent: null,
      tone: "good",
    },
    {
      name: "lower is better: position 12 → 9 is good",
      metric: "averagePosition",
      window: 7,
      series: sparse({ 0: 9, 7: 12 }),
      current: 9,
      baseline: 12,
      change: -3,
      percent: -25,
      tone: "good",
    },
    {
      name: "lower is better: position 9 → 12 is bad",
      metric: "averagePosition",
      window: 30,
      series: sparse({ 0: 12, 30: 9 }),
      current: 12,
      baseline: 9,
      change: 3,
      percent: (3 / 9) * 100,
      tone: "bad",
    },
    {
      name: "flow: the last 7 days summed against the 7 before",
      metric: "clicks",
      window: 7,
      series: endingAtAsOf([...repeat(100, 7), ...repeat(80, 7)]),
      current: 560,
      baseline: 700,
      change: -140,
      percent: -20,
      tone: "bad",
    },
    {
      name: "flow: the 30-day window",
      metric: "sessions",
      window: 30,
      series: endingAtAsOf([...repeat(10, 30), ...repeat(15, 30)]),
      current: 450,
      baseline: 300,
      change: 150,
      percent: 50,
      tone: "good",
    },
    {
      name: "flow: one missing day per window is still enough (6 of 7)",
      metric: "clicks",
      window: 7,
      series: endingAtAsOf([10, 10, null, 10, 10, 10, 10, 10, 10, 10, 10, 10, null, 10]),
      current: 60,
      baseline: 60,
      change: 0,
      percent: 0,
      tone: "flat",
    },
    {
      name: "flow: a thin previous window (5 of 7 days) gives no baseline",
      metric: "clicks",
      window: 7,
      series: endingAtAsOf([null, null, 10, 10, 10, 10, 10, ...repeat(10, 7)]),
      current: 70,
      baseline: null,
      change: null,
      percent: null,
      tone: "flat",
    },
    {
      name: "flow: a thin current window gives no current value",
      metric: "clicks",
      window: 7,
      series: endingAtAsOf([...repeat(10, 7), 10, 10, 10, 10, null, null, null]),
      current: null,
      baseline: 70,
      change: null,
      percent: null,
      tone: "flat",
      asOf: null,
    },
    {
      name: "flow: a zero baseline is N/A, never 0 %",
      metric: "conversions",
      window: 7,
      series: endingAtAsOf([...repeat(0, 7), ...repeat(1, 7)]),
      current: 7,
      baseline: 0,
      change: 7,
      percent: null,
      tone: "good",
    },
    {
      name: "flow: a rate (CTR) averages its days instead of summing them",
      metric: "ctr",
      window: 7,
      series: endingAtAsOf([...repeat(2, 7), ...repeat(3, 7)]),
      current: 3,
      baseline: 2,
      change: 1,
      percent: 50,
      tone: "good",
    },
  ])("$name", ({ metric, window, series, current, baseline, change, percent, tone, asOf }) => {
    const result = computeChange(metric, series, AS_OF, window);
    expect(result).toMatchObject({ metric, window, current, baseline, tone });
    expect(result.asOf).toBe(asOf === undefined ? AS_OF : asOf);
    if (change === null) expect(result.change).toBeNull();
    else expect(result.change).toBeCloseTo(change, 9);
    if (percent === null) expect(result.percentChange).toBeNull();
    else expect(result.percentChange).toBeCloseTo(percent, 9);
  });

  it("ignores days after asOf, which the provider has not finished", () => {
    const series = [...endingAtAsOf([...repeat(10, 14)]), { day: shiftDay(AS_OF, 1), value: 1 }];
    expect(computeChange("clicks", series, AS_OF, 7)).toMatchObject({ current: 70, baseline: 70 });
    const stock = [...sparse({ 0: 50, 7: 50 }), { day: shiftDay(AS_OF, 1), value: 10 }];
    expect(computeChange("domainRating", stock, AS_OF, 7)).toMatchObject({ current: 50, asOf: AS_OF });
  });

  it("gives nothing for an empty series", () => {
    expect(computeChange("clicks", [], AS_OF, 30)).toMatchObject({ current: null, baseline: null, asOf: null });
  });
});
