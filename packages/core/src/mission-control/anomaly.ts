import { shiftDay } from "../dates/day";
import type { DailyValue } from "./change";

/**
 * Anomaly detection for any daily metric series (docs/decisions.md, "Alerts on any widget metric"): is a day's value outside the band its
 * own recent history predicts? The prediction for a day uses only the same weekday of earlier weeks,
 * because business sites have weekly seasonality: a Saturday compared with the week's average is
 * always a "drop", a Saturday compared with earlier Saturdays is not.
 */
export interface AnomalyOptions {
  /** The latest complete day; later days are never judged. Defaults to the series' last day. */
  asOf?: string;
  /** The most recent days whose data a connector is still filling in (GSC ~2–3); shown, never judged. */
  lagDays?: number;
  /** How many earlier same weekdays make the history. */
  weeks?: number;
  /** Fewest same-weekday values needed before a day is judged at all. */
  minWeeks?: number;
  /** Band half-width in robust standard deviations. */
  sensitivity?: number;
  /** Smallest band half-width as a share of the expected value, so a near-flat history does not flag every wiggle. */
  minRelativeWidth?: number;
}

export const ANOMALY_DEFAULTS = {
  lagDays: 0,
  weeks: 8,
  minWeeks: 4,
  sensitivity: 3,
  minRelativeWidth: 0.1,
} as const;

export interface AnomalyPoint {
  day: string;
  value: number | null;
  /** The band expected for the day; null when the history is too short. */
  expected: number | null;
  low: number | null;
  high: number | null;
  /** null = no verdict: too little history, no value, a lagging day or a day after asOf. */
  anomalous: boolean | null;
  direction: "up" | "down" | null;
}

// Scales a median absolute deviation to a standard deviation for normally distributed noise.
const MAD_TO_SIGMA = 1.4826;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Expected value and half-width from same-weekday values `weeksBack[i]` weeks ago. Median and MAD rather
 * than mean and standard deviation: last month's outage or a campaign spike is in the history too,
 * and one such week would drag a mean and blow up a deviation until the band hides the next outage.
 * The trend is the Theil–Sen slope (median of pairwise slopes, equally immune to single outliers);
 * every value is carried forward along it, so a growing site is not compared with its smaller self.
 * Goals' pace (goals/projection.ts) projects the days still to come with the same band.
 */
export function seasonalBand(
  samples: { weeksBack: number; value: number }[],
  sensitivity: number,
  minRelativeWidth: number,
) {
  const slopes: number[] = [];
  for (let i = 0; i < samples.length; i += 1) {
    for (let j = i + 1; j < samples.length; j += 1) {
      const a = samples[i];
      const b = samples[j];
      slopes.push((a.value - b.value) / (b.weeksBack - a.weeksBack));
    }
  }
  const slope = median(slopes);
  const projected = samples.map((sample) => sample.value + slope * sample.weeksBack);
  const expected = median(projected);
  const spread = MAD_TO_SIGMA * median(projected.map((value) => Math.abs(value - expected)));
  const halfWidth = Math.max(sensitivity * spread, minRelativeWidth * Math.abs(expected));
  return { expected, low: expected - halfWidth, high: expected + halfWidth };
}

/** Each day of the series with its expected band and verdict, in day order. */
export function detectAnomalies(series: readonly DailyValue[], options: AnomalyOptions = {}): AnomalyPoint[] {
  const { lagDays, weeks, minWeeks, sensitivity, minRelativeWidth } = { ...ANOMALY_DEFAULTS, ...options };
  const byDay = new Map<string, number | null>();
  for (const point of series) {
    byDay.set(point.day, typeof point.value === "number" && Number.isFinite(point.value) ? point.value : null);
  }
  const days = [...byDay.keys()].sort();
  const asOf = options.asOf ?? days[days.length - 1];
  const lastJudged = asOf === undefined ? undefined : shiftDay(asOf, -lagDays);
  return days.map((day) => {
    const value = byDay.get(day) ?? null;
    const samples: { weeksBack: number; value: number }[] = [];
    for (let weeksBack = 1; weeksBack <= weeks; weeksBack += 1) {
      const earlier = byDay.get(shiftDay(day, -7 * weeksBack));
      if (earlier !== undefined && earlier !== null) samples.push({ weeksBack, value: earlier });
    }
    if (samples.length < Math.max(minWeeks, 2)) {
      return { day, value, expected: null, low: null, high: null, anomalous: null, direction: null };
    }
    const { expected, low, high } = seasonalBand(samples, sensitivity, minRelativeWidth);
    const judged = value !== null && lastJudged !== undefined && day <= lastJudged;
    const direction = !judged ? null : value > high ? "up" : value < low ? "down" : null;
    return { day, value, expected, low, high, anomalous: judged ? direction !== null : null, direction };
  });
}

/** The latest day that got a verdict, for a rule that alerts on "today is anomalous"; null when none did. */
export function latestVerdict(points: readonly AnomalyPoint[]): AnomalyPoint | null {
  for (let index = points.length - 1; index >= 0; index -= 1) {
    if (points[index].anomalous !== null) return points[index];
  }
  return null;
}
