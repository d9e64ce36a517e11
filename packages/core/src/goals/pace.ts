import { daysBetween, shiftDay } from "../dates/day";
import type { DayRange } from "../dates/ranges";
import type { MetricAggregation } from "../insights/kind";
import { lastFinalDay } from "../insights/lag";
import { ANOMALY_DEFAULTS, seasonalBand } from "../mission-control/anomaly";
import type { DailyValue } from "../mission-control/change";
import { type GoalPeriod, goalClock } from "./period";

/**
 * Where a goal stands: 'met' (reached, or a period that ended on the right side), 'ahead' / 'short' (a
 * goal to reach, by its projection), 'under' / 'over' (a lower-is-better goal to stay under), 'unknown'
 * (no value and no projection, or a change goal without a comparison value to grow from).
 */
export type GoalStatus = "met" | "ahead" | "short" | "under" | "over" | "unknown";

export interface GoalInput {
  target: number;
  period: GoalPeriod;
  /** The days the goal measures (goalPeriodRange). */
  range: DayRange;
  /** Today in the dashboard's zone. */
  today: string;
  /** Days before yesterday the provider is still filling in (insights/lag.ts); their numbers are partial. */
  lagDays: number;
  /** 'sum' adds up over days (sessions, cost); 'average' does not (bounce rate, position): insights/kind.ts. */
  aggregation: MetricAggregation;
  /** A target to stay under (bounce rate, cost per conversion, position, a budget). */
  lowerIsBetter: boolean;
  /**
   * The metric by day: at least the measured days up to yesterday, and for a projection the weeks before
   * (the seasonal band learns from up to eight earlier same weekdays). Days outside are history only.
   */
  series: readonly DailyValue[];
  /**
   * The provider's own total of the measured days so far, when known (the widget's total when it shows
   * exactly those days). Preferred to adding the days up: users, or any ratio, are not the sum of days.
   */
  total?: number | null;
  /** A change goal's comparison-period value: the target is a percent change against it. */
  baseline?: number | null;
}

export interface GoalProgress {
  /** What the value must reach (or stay under): the target, or for a change goal baseline × (1 + target %). */
  threshold: number | null;
  value: number | null;
  /** value / threshold (0.83 for 83 %); null without a positive threshold or a value. */
  progress: number | null;
  /** The value the period is on pace to end with; the value itself once the period is over. */
  projected: number | null;
  onTrack: boolean | null;
  status: GoalStatus;
  /** (projected − threshold) / threshold in percent: −8 is "8 % short" (or under, for a lower-is-better goal). */
  gapPercent: number | null;
  daysTotal: number;
  daysLeft: number;
  /** The last day with numbers shown; null before the period starts. */
  dataThrough: string | null;
  /** The last day the provider has finished (lastFinalDay); later days are projected, not trusted. */
  settledThrough: string;
}

const numeric = (value: number | null | undefined): value is number =>
  typeof value === "number" && Number.isFinite(value);

/** How far back a run rate looks when a weekday has too few earlier weeks for the band. */
const RUN_RATE_DAYS = 28;

/**
 * The value expected on `day` from the settled days only, with the seasonal band the anomaly and insights
 * rules use (mission-control/anomaly.ts: the same weekday of up to eight earlier weeks, Theil–Sen trend,
 * median), never from a projected day, so a projection a fortnight out does not compound its own guess.
 * With fewer than the band's four weeks, the mean of the last 28 settled days (a straight run rate);
 * with no settled day at all, null.
 */
function expectedOn(day: string, settled: Map<string, number>, settledThrough: string): number | null {
  const samples: { weeksBack: number; value: number }[] = [];
  for (let weeksBack = 1; samples.length < ANOMALY_DEFAULTS.weeks && weeksBack <= 60; weeksBack += 1) {
    const earlier = shiftDay(day, -7 * weeksBack);
    if (earlier > settledThrough) continue;
    const value = settled.get(earlier);
    if (value !== undefined) samples.push({ weeksBack, value });
    else if (daysBetween(earlier, settledThrough) > 7 * (ANOMALY_DEFAULTS.weeks + 1)) break;
  }
  const nonNegative = samples.every((sample) => sample.value >= 0);
  if (samples.length >= ANOMALY_DEFAULTS.minWeeks) {
    const { expected } = seasonalBand(samples, ANOMALY_DEFAULTS.sensitivity, ANOMALY_DEFAULTS.minRelativeWidth);
    // The trend carried weeks ahead may cross zero; sessions or cost never do.
    return nonNegative ? Math.max(0, expected) : expected;
  }
  const recent: number[] = [];
  for (let back = 0; back < RUN_RATE_DAYS; back += 1) {
    const value = settled.get(shiftDay(settledThrough, -back));
    if (value !== undefined) recent.push(value);
  }
  return recent.length === 0 ? null : recent.reduce((sum, value) => sum + value, 0) / recent.length;
}

/**
 * A goal's value, progress and pace (docs/decisions.md, "Goals: periods, pace and lagging days"). The
 * projection keeps what is settled, and for the days still to come and the provider's unsettled days
 * takes each day's seasonal expectation (an unsettled day keeps its number when it is already above:
 * late data only adds to a day). A sum projects its total; an average projects the mean over the
 * period's days, weighting days equally (the providers' weights are not in a daily series). With the
 * provider's own total of the days so far, the projection is that total moved as the days' projection
 * moves from the days so far (users over a month are fewer than the days' users added up).
 */
export function goalProgress(input: GoalInput): GoalProgress {
  const { range, today, lowerIsBetter, aggregation } = input;
  const clock = goalClock(range, today);
  const settledThrough = lastFinalDay(today, input.lagDays);
  const observed = new Map<string, number>();
  for (const point of input.series) if (numeric(point.value)) observed.set(point.day, point.value);
  const settled = new Map([...observed].filter(([day]) => day <= settledThrough));

  // The measured days that have numbers, split into settled and still filling in.
  const shown: string[] = [];
  if (clock.dataThrough !== null) {
    for (let day = range.startDate; day <= clock.dataThrough; day = shiftDay(day, 1)) shown.push(day);
  }
  const shownValues = shown.filter((day) => observed.has(day)).map((day) => observed.get(day) as number);
  const sumOf = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
  // The measured days added up (or averaged), and the value: the provider's own total when known.
  const fromDays =
    shownValues.length === 0
      ? null
      : aggregation === "sum"
        ? sumOf(shownValues)
        : sumOf(shownValues) / shownValues.length;
  const value = numeric(input.total) ? input.total : fromDays;

  const future: string[] = [];
  for (let index = clock.daysTotal - clock.daysLeft; index < clock.daysTotal; index += 1) {
    future.push(shiftDay(range.startDate, index));
  }
  const unsettled = shown.filter((day) => day > settledThrough);
  const expected = (day: string) => expectedOn(day, settled, settledThrough);

  let projected: number | null = null;
  if (future.length === 0 && unsettled.length === 0) {
    projected = value;
  } else if (aggregation === "sum") {
    const topUps = unsettled.map((day) => {
      const guess = expected(day);
      return guess === null ? 0 : Math.max(0, guess - (observed.get(day) ?? 0));
    });
    const ahead = future.map(expected);
    projected = ahead.some((guess) => guess === null)
      ? null
      : (fromDays ?? 0) + sumOf(topUps) + sumOf(ahead as number[]);
    if (projected !== null && value === null && settled.size === 0) projected = null;
  } else {
    const kept = shown
      .filter((day) => day <= settledThrough && observed.has(day))
      .map((day) => observed.get(day) as number);
    const guesses = [...unsettled, ...future].map((day) => expected(day) ?? observed.get(day) ?? null);
    projected =
      guesses.some((guess) => guess === null) || kept.length + guesses.length === 0
        ? null
        : (sumOf(kept) + sumOf(guesses as number[])) / (kept.length + guesses.length);
  }

  // With the provider's total, the days' projection is carried over as a ratio: the period is expected to
  // grow (or move) from its total as its days do. For a sum of days this changes nothing (the total is
  // their sum); for users, or any count of distinct people, the total is less than the days added up,
  // and adding each coming day's users to it would count a returning visitor once per day.
  if (
    projected !== null &&
    numeric(input.total) &&
    fromDays !== null &&
    fromDays > 0 &&
    !(future.length === 0 && unsettled.length === 0)
  ) {
    projected = input.total * (projected / fromDays);
  }

  let threshold: number | null = input.target;
  if (input.period === "change") {
    const baseline = input.baseline;
    threshold = numeric(baseline) && baseline > 0 ? baseline * (1 + input.target / 100) : null;
  }
  const progress = threshold !== null && threshold > 0 && value !== null ? value / threshold : null;
  const ended = clock.daysLeft === 0 && unsettled.length === 0;
  const status = statusOf({ threshold, value, projected, ended, lowerIsBetter, sum: aggregation === "sum" });
  // How far from the threshold: where the period ended, where a reached target already is, else where it is heading.
  const basis = ended || status === "met" ? value : (projected ?? value);
  return {
    threshold,
    value,
    progress,
    projected,
    onTrack: status === "unknown" ? null : status === "met" || status === "ahead" || status === "under",
    status,
    gapPercent: status === "unknown" ? null : gapOf(basis, threshold),
    daysTotal: clock.daysTotal,
    daysLeft: clock.daysLeft,
    dataThrough: clock.dataThrough,
    settledThrough,
  };
}

function gapOf(value: number | null, threshold: number | null): number | null {
  if (value === null || threshold === null || !(threshold > 0)) return null;
  return ((value - threshold) / threshold) * 100;
}

function statusOf(facts: {
  threshold: number | null;
  value: number | null;
  projected: number | null;
  ended: boolean;
  lowerIsBetter: boolean;
  sum: boolean;
}): GoalStatus {
  const { threshold, value, projected, ended, lowerIsBetter, sum } = facts;
  if (threshold === null) return "unknown";
  if (lowerIsBetter) {
    // A sum past its cap cannot come back under it: the budget is spent.
    if (value !== null && sum && value > threshold) return "over";
    if (ended) return value === null ? "unknown" : value <= threshold ? "met" : "over";
    if (projected === null) return "unknown";
    return projected <= threshold ? "under" : "over";
  }
  // A sum that reached its target keeps it: days only add.
  if (value !== null && (sum || ended) && value >= threshold) return "met";
  if (ended) return value === null ? "unknown" : "short";
  if (projected === null) return "unknown";
  return projected >= threshold ? "ahead" : "short";
}
