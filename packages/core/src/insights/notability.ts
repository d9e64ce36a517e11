import { daysBetween } from "../dates/day";
import type { DayRange } from "../dates/ranges";
import { formatChange } from "../format/number";
import { type AnomalyOptions, detectAnomalies } from "../mission-control/anomaly";
import type { DailyValue } from "../mission-control/change";

/**
 * How many band widths (√Σ of the days' half-widths²) the range's summed deviation must reach. The
 * bands are 3 robust σ wide per day, so one width would be 3σ for truly independent normal noise, but
 * medians and MADs of 8 weeks are themselves noisy: on synthetic Gaussian noise one width was crossed
 * by 5 % of series and two by none of 300, while a channel collapsing for a third of the month crossed
 * 3.6 or more.
 */
export const NOTABLE_BAND_WIDTHS = 2;

/** The widget's values of one metric: the range's and the comparison's (its totals). */
export interface ChangeToJudge {
  current: number;
  previous: number;
}

export interface ChangeContext {
  /** The widget's main range (both ends inclusive). */
  range: DayRange;
  /**
   * The metric's daily values in the unit of the widget's total (daily sums for a 'sum' metric, daily
   * means for an 'average'), from at least 4 weeks (the band's minimum) before the range to its end.
   */
  series?: readonly DailyValue[];
  /** Mission Control's anomaly options (its defaults otherwise; `lagDays` for a lagging connector); `asOf` is the range's end. */
  anomaly?: Omit<AnomalyOptions, "asOf">;
  minAbsolute: number;
  fallbackPercent: number;
}

export interface ChangeVerdict {
  delta: number;
  /** As the widget shows it; null when the previous value is zero. */
  percentChange: number | null;
  /**
   * How unusual the change is, 1 being the threshold: band widths over NOTABLE_BAND_WIDTHS, or, without
   * history, the percent change over fallbackPercent. Ranks movements across a dashboard.
   */
  unusualness: number;
  /** 'band': judged against the metric's weekday-seasonal band; 'fixed': against fallbackPercent. */
  basis: "band" | "fixed";
  notable: boolean;
}

function dayCount(range: DayRange): number {
  return daysBetween(range.startDate, range.endDate) + 1;
}

/** How far the range's days strayed from their bands, summed: the period's surprise before it is a z. */
export interface PeriodSurprise {
  /** Σ (value − expected) over the days of the range that have a band and a value. */
  deviation: number;
  /** √Σ (band half-width)² over the same days: the noise of that sum, days taken as independent. */
  noise: number;
  /** How many days of the range were judged. */
  days: number;
}

/**
 * How far the range departed from the metric's usual behaviour, day by day, using Mission Control's
 * anomaly band exactly as its alert rule does: each day against the same weekday of the weeks before it
 * (Theil–Sen trend, median/MAD). A weekly pattern, a range with more weekend days than its comparison
 * and a steady trend are therefore all "usual"; an outage or a campaign is not, and the median keeps
 * one such week from widening the bands of the days after it. Null when fewer than half the range's
 * days get a verdict (too little history, or a range mostly still filling in).
 */
export function periodSurprise(
  series: readonly DailyValue[],
  range: DayRange,
  anomaly: ChangeContext["anomaly"] = {},
): PeriodSurprise | null {
  const upToEnd = series.filter((point) => point.day <= range.endDate);
  // A day the rule gives no verdict (no value, too little history, still filling in at a lagging
  // provider) is left out, exactly as Mission Control leaves it out.
  const judged = detectAnomalies(upToEnd, { ...anomaly, asOf: range.endDate }).filter(
    (point) => point.day >= range.startDate && point.anomalous !== null,
  );
  if (judged.length === 0 || judged.length < Math.ceil(dayCount(range) / 2)) return null;
  let deviation = 0;
  let variance = 0;
  for (const point of judged) {
    // A verdict implies a value and a band.
    deviation += (point.value as number) - (point.expected as number);
    variance += ((point.high as number) - (point.expected as number)) ** 2;
  }
  return { deviation, noise: Math.sqrt(variance), days: judged.length };
}

/**
 * Whether the change from `previous` to `current` is worth a sentence: at least `minAbsolute` in the
 * metric's unit, and the range's days together outside their usual band, on the side of the change
 * (a fall the calendar explains, eight weekend days against ten, is not news). Without enough
 * history: a change of at least `fallbackPercent` %.
 */
export function judgeChange(change: ChangeToJudge, context: ChangeContext): ChangeVerdict {
  const delta = change.current - change.previous;
  const percentChange = formatChange(change.current, change.previous);
  const size = Math.abs(delta);
  const surprise = context.series ? periodSurprise(context.series, context.range, context.anomaly) : null;
  // A zero noise only comes from a history of zeros, where any change would be infinitely unusual:
  // such a metric is judged like one without history. A surprise on the other side of the change
  // (a fall smaller than the calendar predicted) does not make the change news.
  if (surprise && surprise.noise > 0) {
    const z = surprise.deviation / surprise.noise;
    const unusualness = Math.sign(z) === Math.sign(delta) ? Math.abs(z) / NOTABLE_BAND_WIDTHS : 0;
    const notable = size > 0 && size >= context.minAbsolute && unusualness >= 1;
    return { delta, percentChange, unusualness, basis: "band", notable };
  }
  // From zero there is no percent: a change from nothing is as unusual as the fallback allows.
  const unusualness = percentChange === null ? (size > 0 ? 1 : 0) : Math.abs(percentChange) / context.fallbackPercent;
  const notable = size > 0 && size >= context.minAbsolute && unusualness >= 1;
  return { delta, percentChange, unusualness, basis: "fixed", notable };
}
