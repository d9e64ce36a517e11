/**
 * Which value axis each series of a line/area/bar chart is drawn on (at most two: left and right).
 *
 * - Metrics of different formats (money beside counts) go on two axes: the first series' format
 *   stays left, every other format goes right.
 * - Metrics of one format whose sizes differ by at least MAGNITUDE_SPLIT (clicks beside impressions)
 *   would leave the small ones as a flat line on the floor: the series are cut into a large and a
 *   small group at the widest gap between their peaks (on a log scale); the group holding the first
 *   series stays left, the other goes right.
 */
export interface AxisSeries {
  key: string;
  format: string;
  /** Every value the series draws (current and comparison period); nulls and non-finite values are ignored. */
  values: ReadonlyArray<number | null | undefined>;
}

/** Peaks this many times apart are split onto two axes. */
export const MAGNITUDE_SPLIT = 10;

function peak(values: AxisSeries["values"]): number {
  let result = 0;
  for (const value of values)
    if (typeof value === "number" && Number.isFinite(value)) result = Math.max(result, Math.abs(value));
  return result;
}

/** The keys of the series drawn on the right axis (empty: one axis). */
export function rightAxisSeries(series: readonly AxisSeries[]): Set<string> {
  const right = new Set<string>();
  if (series.length < 2) return right;
  const first = series[0];
  if (series.some((item) => item.format !== first.format)) {
    for (const item of series) if (item.format !== first.format) right.add(item.key);
    return right;
  }
  // Series with nothing to draw (all zero or N/A) take no part in the decision and stay left.
  const sized = series.map((item) => ({ key: item.key, peak: peak(item.values) })).filter((item) => item.peak > 0);
  if (sized.length < 2) return right;
  const sorted = [...sized].sort((a, b) => a.peak - b.peak);
  let cut = -1;
  let widest = 0;
  for (let index = 1; index < sorted.length; index += 1) {
    const gap = Math.log10(sorted[index].peak) - Math.log10(sorted[index - 1].peak);
    if (gap > widest) {
      widest = gap;
      cut = index;
    }
  }
  if (widest < Math.log10(MAGNITUDE_SPLIT)) return right;
  const small = new Set(sorted.slice(0, cut).map((item) => item.key));
  const firstIsSmall = small.has(first.key) || !sized.some((item) => item.key === first.key);
  for (const item of sized) if (small.has(item.key) !== firstIsSmall) right.add(item.key);
  return right;
}
