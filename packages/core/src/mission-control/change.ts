import { shiftDay } from "../dates/day";
import { type ChangeTone, changeTone } from "../format/change-tone";
import { formatChange } from "../format/number";
import { DOMAIN_METRICS, type DomainMetricDefinition, type DomainMetricKey } from "./metrics";

/** One stored daily value of a metric; a day may be absent from a series or carry null (sparse). */
export interface DailyValue {
  day: string;
  value: number | null;
}

/** The windows of the 7/30-day toggle. */
export const CHANGE_WINDOWS = [7, 30] as const;
export type ChangeWindow = (typeof CHANGE_WINDOWS)[number];

/**
 * How far back a stock value may be taken when the exact day is missing. Ahrefs and rank trackers do
 * not refresh every domain every day, so "7 days ago" is often a gap; a value a few days older still
 * describes the level, one much older would make a 7-day change silently a 12-day one.
 */
export const STOCK_TOLERANCE_DAYS = 3;

/**
 * Share of a flow window's days that must have a value. A sum over a window with missing days would
 * read as a fall (4 days of clicks against 7), so a thin window gives no number at all.
 */
export const FLOW_MIN_COVERAGE = 0.8;

export interface MetricChange {
  metric: DomainMetricKey;
  window: ChangeWindow;
  /** The day the current value describes (the cell's as-of date); null when there is no current value. */
  asOf: string | null;
  current: number | null;
  baseline: number | null;
  /** current − baseline, in the metric's own unit (positions for rank, points for DR). */
  change: number | null;
  /** Percent change; null (shown as N/A, never 0 %) when the baseline is missing or zero. */
  percentChange: number | null;
  tone: ChangeTone;
}

/** The value on each day, ignoring nulls and non-finite values (the last entry of a duplicated day wins). */
function valuesByDay(series: readonly DailyValue[]): Map<string, number> {
  const byDay = new Map<string, number>();
  for (const point of series) {
    if (typeof point.value === "number" && Number.isFinite(point.value)) byDay.set(point.day, point.value);
  }
  return byDay;
}

/** The latest value on `day` or up to STOCK_TOLERANCE_DAYS before it. */
function valueNear(byDay: Map<string, number>, day: string): { day: string; value: number } | null {
  for (let back = 0; back <= STOCK_TOLERANCE_DAYS; back += 1) {
    const candidate = shiftDay(day, -back);
    const value = byDay.get(candidate);
    if (value !== undefined) return { day: candidate, value };
  }
  return null;
}

/** Sum or mean of the `window` days ending at `lastDay`, or null when too few of them have a value. */
function windowTotal(
  byDay: Map<string, number>,
  lastDay: string,
  window: number,
  aggregate: "sum" | "mean",
): number | null {
  const values: number[] = [];
  for (let back = 0; back < window; back += 1) {
    const value = byDay.get(shiftDay(lastDay, -back));
    if (value !== undefined) values.push(value);
  }
  if (values.length === 0 || values.length < Math.ceil(window * FLOW_MIN_COVERAGE)) return null;
  const sum = values.reduce((total, value) => total + value, 0);
  return aggregate === "mean" ? sum / values.length : sum;
}

/**
 * The 7/30-day change of one metric as of `asOf`, the latest complete day of its provider (a day still
 * filling in would make every flow look like a fall). Stocks: the value on `asOf` (or shortly before)
 * against the value `window` days before that. Flows: the last `window` days against the `window` before.
 */
export function computeChange(
  metric: DomainMetricKey | DomainMetricDefinition,
  series: readonly DailyValue[],
  asOf: string,
  window: ChangeWindow,
): MetricChange {
  const definition = typeof metric === "string" ? DOMAIN_METRICS[metric] : metric;
  // Days after asOf are incomplete (still filling in at the provider) and never count; ISO days order as text.
  const byDay = valuesByDay(series.filter((point) => point.day <= asOf));
  let current: number | null = null;
  let baseline: number | null = null;
  let currentDay: string | null = null;
  if (definition.kind === "stock") {
    const latest = valueNear(byDay, asOf);
    if (latest) {
      current = latest.value;
      currentDay = latest.day;
      baseline = valueNear(byDay, shiftDay(latest.day, -window))?.value ?? null;
    }
  } else {
    current = windowTotal(byDay, asOf, window, definition.aggregate);
    currentDay = current === null ? null : asOf;
    baseline = windowTotal(byDay, shiftDay(asOf, -window), window, definition.aggregate);
  }
  const change = current !== null && baseline !== null ? current - baseline : null;
  return {
    metric: definition.key,
    window,
    asOf: currentDay,
    current,
    baseline,
    change,
    percentChange: formatChange(current, baseline),
    tone: changeTone(change, definition.lowerIsBetter),
  };
}
