import { describe, expect, it } from "vitest";
import { parseDay, shiftDay } from "../dates/day";
import { detectAnomalies, latestVerdict } from "./anomaly";
import type { DailyValue } from "./change";

// A Monday, so weekday arithmetic in the generators is easy to follow.
const FIRST = "2026-08-03";

function series(days: number, makeValue: (index: number, day: string) => number | null): DailyValue[] {
  return Array.from({ length: days }, (_, index) => {
    const day = shiftDay(FIRST, index);
    return { day, value: makeValue(index, day) };
  });
}

const isWeekend = (day: string) => [0, 6].includes(parseDay(day).getDay());

// Deterministic noise of about ±4 %, so the test never depends on a random seed.
const noise = (index: number) => 1 + 0.04 * Math.sin(index * 2.3) * Math.cos(index * 0.7);

/** Twelve weeks of a business site: weekdays ~1000, weekends ~350, growing ~0.4 % a day, with noise. */
function businessSite(makeValue?: (index: number, day: string, usual: number) => number | null): DailyValue[] {
  return series(84, (index, day) => {
    const usual = (isWeekend(day) ? 350 : 1000) * (1 + 0.004 * index) * noise(index);
    return makeValue ? makeValue(index, day, usual) : usual;
  });
}

const flagged = (points: ReturnType<typeof detectAnomalies>) =>
  points.filter((point) => point.anomalous).map((point) => point.day);

describe("detectAnomalies", () => {
  it.each([
    ["Monday", 0],
    ["Tuesday", 1],
    ["Wednesday", 2],
    ["Thursday", 3],
    ["Friday", 4],
  ])("flags a real drop on a %s and not the weekends, on a growing series with a weekly pattern", (_name, weekday) => {
    const dropDay = shiftDay(FIRST, 7 * 10 + weekday); // in week 11
    const points = detectAnomalies(businessSite((_index, day, usual) => (day === dropDay ? usual * 0.55 : usual)));
    expect(flagged(points)).toEqual([dropDay]);
    expect(points.find((point) => point.day === dropDay)).toMatchObject({ anomalous: true, direction: "down" });
    const weekends = points.filter((point) => isWeekend(point.day) && point.anomalous !== null);
    expect(weekends.length).toBeGreaterThan(10);
    expect(weekends.every((point) => point.anomalous === false)).toBe(true);
  });

  it("expects the trend to continue rather than the old level", () => {
    const points = detectAnomalies(businessSite());
    const last = points[points.length - 1];
    expect(last.expected).not.toBeNull();
    expect(Math.abs(last.expected! - last.value!) / last.value!).toBeLessThan(0.05);
    expect(flagged(points)).toEqual([]);
  });

  it("gives no verdicts without enough history", () => {
    const points = detectAnomalies(businessSite().slice(0, 27));
    expect(points).toHaveLength(27);
    expect(points.every((point) => point.anomalous === null && point.expected === null)).toBe(true);
  });

  it("judges a day once it has minWeeks earlier same weekdays", () => {
    const points = detectAnomalies(businessSite().slice(0, 29));
    expect(points[27].anomalous).toBeNull();
    expect(points[28]).toMatchObject({ anomalous: false, direction: null });
    expect(points[28].low).toBeLessThan(points[28].value!);
    expect(points[28].high).toBeGreaterThan(points[28].value!);
  });

  it("never flags the lagging days, but still draws their band", () => {
    // The connector has only part of the last two days yet.
    const lagging = businessSite((index, _day, usual) => (index >= 82 ? usual * 0.3 : usual));
    const withoutLag = detectAnomalies(lagging);
    expect(flagged(withoutLag)).toEqual([shiftDay(FIRST, 82), shiftDay(FIRST, 83)]);
    const points = detectAnomalies(lagging, { lagDays: 2 });
    expect(flagged(points)).toEqual([]);
    expect(points.slice(-2).every((point) => point.anomalous === null && point.expected !== null)).toBe(true);
    expect(points[81].anomalous).toBe(false);
  });

  it("does not judge days after asOf", () => {
    const points = detectAnomalies(businessSite(), { asOf: shiftDay(FIRST, 80) });
    expect(points.slice(-3).every((point) => point.anomalous === null)).toBe(true);
    expect(points[80].anomalous).toBe(false);
  });

  it("flags a single spike in a constant series, and only the spike", () => {
    const spikeIndex = 40;
    const points = detectAnomalies(series(63, (index) => (index === spikeIndex ? 500 : 100)));
    expect(flagged(points)).toEqual([shiftDay(FIRST, spikeIndex)]);
    expect(points[spikeIndex]).toMatchObject({ direction: "up", expected: 100 });
    // A week later the spike is in the history; the median ignores it.
    expect(points[spikeIndex + 7]).toMatchObject({ anomalous: false, expected: 100 });
  });

  it("gives missing values no verdict and leaves them out of later history", () => {
    const points = detectAnomalies(series(63, (index) => (index % 7 === 3 && index < 28 ? null : 100)));
    expect(points[3]).toMatchObject({ value: null, anomalous: null });
    // The first four Thursdays are missing: the 8th (index 52) has 3 earlier values, the 9th (59) has 4.
    expect(points[52]).toMatchObject({ value: 100, anomalous: null, expected: null });
    expect(points[59]).toMatchObject({ anomalous: false, expected: 100 });
  });

  it("returns nothing for an empty series", () => {
    expect(detectAnomalies([])).toEqual([]);
  });
});

describe("latestVerdict", () => {
  it("is the last judged day, skipping lagging ones", () => {
    const points = detectAnomalies(businessSite(), { lagDays: 2 });
    expect(latestVerdict(points)?.day).toBe(shiftDay(FIRST, 81));
    expect(latestVerdict(detectAnomalies(businessSite().slice(0, 10)))).toBeNull();
  });
});
