import type { TTable, TTableMetric } from "../contract/dashboards";
import { parseDay, shiftDay } from "../dates/day";
import type { DayRange } from "../dates/ranges";
import type { DailyValue } from "../mission-control/change";

/** The range every scenario reads: 30 days, compared with the 30 before (the product's default). */
export const RANGE: DayRange = { startDate: "2026-10-31", endDate: "2026-11-29" };
export const COMPARISON: DayRange = { startDate: "2026-10-01", endDate: "2026-10-30" };
/** Eight weeks before the comparison starts, so every day of both periods has a full band. */
export const HISTORY_START = "2026-08-06";

/** Test generator: a seeded pseudo-random stream (mulberry32), so "random" noise is the same every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const isWeekend = (day: string) => [0, 6].includes(parseDay(day).getDay());

/** Test generator: one value per day from HISTORY_START to the range's end. */
export function dailySeries(makeValue: (day: string, index: number) => number): DailyValue[] {
  const days: DailyValue[] = [];
  for (let day = HISTORY_START, index = 0; day <= RANGE.endDate; day = shiftDay(day, 1), index += 1) {
    days.push({ day, value: makeValue(day, index) });
  }
  return days;
}

/** A channel's daily sessions: weekday and weekend levels, a daily growth rate and ±`noise` relative noise. */
export interface ChannelShape {
  name: string;
  weekday: number;
  weekend: number;
  growthPerDay?: number;
  noise?: number;
  /** Multiplies the usual value on the given days: the scripted event. */
  event?: { from: string; factor: number };
}

/** Test generator: each channel's daily series, whole numbers, from one seed. */
export function channelSeries(shapes: readonly ChannelShape[], seed: number): Map<string, DailyValue[]> {
  const random = seeded(seed);
  const result = new Map<string, DailyValue[]>();
  for (const shape of shapes) {
    result.set(
      shape.name,
      dailySeries((day, index) => {
        const level = isWeekend(day) ? shape.weekend : shape.weekday;
        const trend = 1 + (shape.growthPerDay ?? 0) * index;
        const wiggle = 1 + (shape.noise ?? 0.04) * (2 * random() - 1);
        const event = shape.event && day >= shape.event.from ? shape.event.factor : 1;
        return Math.round(level * trend * wiggle * event);
      }),
    );
  }
  return result;
}

/** Sum of a series over a range. */
export function sumOver(series: readonly DailyValue[], range: DayRange): number {
  return series
    .filter((point) => point.day >= range.startDate && point.day <= range.endDate)
    .reduce((total, point) => total + (point.value ?? 0), 0);
}

/** Day-by-day sum of several series (the metric's total). */
export function addSeries(all: readonly (readonly DailyValue[])[]): DailyValue[] {
  return all[0].map((point, index) => ({
    day: point.day,
    value: all.reduce((total, series) => total + (series[index].value ?? 0), 0),
  }));
}

export const SESSIONS: TTableMetric = { key: "a.sessions", label: "Sessions", format: "number" };

/** Test builder: the table of a widget grouped by channel for one period. */
export function channelTable(
  channels: Map<string, DailyValue[]>,
  range: DayRange,
  metric: TTableMetric = SESSIONS,
): TTable {
  const rows = [...channels].map(([name, series]) => ({ dimension: name, values: [sumOver(series, range)] }));
  return {
    dimension: { key: "channel", label: "Channel", kind: "string" },
    metrics: [metric],
    rows,
    totals: [rows.reduce((total, row) => total + (row.values[0] ?? 0), 0)],
  };
}

/** Test builder: a widget table without a dimension, one total per metric. */
export function totalsTable(metrics: readonly TTableMetric[], totals: readonly (number | null)[]): TTable {
  return { dimension: null, metrics: [...metrics], rows: [], totals: [...totals] };
}

/** Test builder: a line chart's table, one row per day of `range`. */
export function dayTable(series: readonly DailyValue[], range: DayRange, metric: TTableMetric = SESSIONS): TTable {
  const rows = series
    .filter((point) => point.day >= range.startDate && point.day <= range.endDate)
    .map((point) => ({ dimension: point.day, values: [point.value] }));
  return {
    dimension: { key: "date", label: "Date", kind: "date" },
    metrics: [metric],
    rows,
    totals: [rows.reduce((total, row) => total + (row.values[0] ?? 0), 0)],
  };
}
