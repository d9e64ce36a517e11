import type { TTable } from "../contract/dashboards";

/** What a dimension value with no name (a null cell) is called, as the widget's table calls it. */
export const NOT_SET_LABEL = "(not set)";

/**
 * Rows of a table whose values add up to the total within this share of it count as the whole
 * breakdown; a widget that shows only its top rows (rowsLimit) does not.
 */
export const COMPLETE_TABLE_TOLERANCE = 0.005;

export interface Contributor {
  /** The dimension value as the widget shows it. */
  dimension: string;
  /** Its change, current − previous, in the metric's unit. */
  delta: number;
}

export interface Contribution {
  /** The named dimension values, largest change first. */
  contributors: Contributor[];
  /** The rest of the change: the tail, values missing from a truncated table and null cells. */
  other: number;
  /** How much of the metric's change the named values account for, 0–1. */
  explainedShare: number;
}

export interface ContributionLimits {
  maxContributors: number;
  /** In the metric's unit: a smaller delta is noise, even when it is the biggest one. */
  minAbsolute: number;
  /** Share of the metric's change a value must reach to be named. */
  minShare: number;
}

function isComplete(table: TTable, index: number): boolean {
  const total = table.totals[index];
  if (total === null || total === undefined) return true;
  const sum = table.rows.reduce((acc, row) => acc + (row.values[index] ?? 0), 0);
  return Math.abs(sum - total) <= COMPLETE_TABLE_TOLERANCE * Math.abs(total) + 1e-9;
}

/**
 * Each dimension value's value in `table`. A value absent from a complete table is 0 (a channel that
 * had no sessions has no row); absent from a truncated one, or a null cell, it is unknown and left out.
 */
function valuesByDimension(table: TTable, index: number): { values: Map<string, number | null>; complete: boolean } {
  const values = new Map<string, number | null>();
  for (const row of table.rows) {
    const value = row.values[index];
    values.set(row.dimension ?? NOT_SET_LABEL, typeof value === "number" && Number.isFinite(value) ? value : null);
  }
  return { values, complete: isComplete(table, index) };
}

function valueIn(side: ReturnType<typeof valuesByDimension>, dimension: string): number | null {
  const value = side.values.get(dimension);
  if (value === undefined) return side.complete ? 0 : null;
  return value;
}

// Code-unit order, not localeCompare: the same names must sort the same on every machine and locale.
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Which dimension values explain the change of the additive metric in column `index` of `current` and
 * `previousIndex` of `previous` (paired by dimension value): deltas sorted by size, the biggest named up to `maxContributors` when they
 * reach both limits, and everything else as `other`. Null for a table without a dimension or with a date
 * dimension (days of two different periods do not pair by value).
 */
export function contributionAnalysis(
  current: TTable,
  previous: TTable,
  indexes: { current: number; previous: number },
  totalDelta: number,
  limits: ContributionLimits,
): Contribution | null {
  if (!current.dimension || current.dimension.kind === "date") return null;
  const now = valuesByDimension(current, indexes.current);
  const before = valuesByDimension(previous, indexes.previous);
  const dimensions = [...new Set([...now.values.keys(), ...before.values.keys()])];
  const deltas: Contributor[] = [];
  for (const dimension of dimensions) {
    const currentValue = valueIn(now, dimension);
    const previousValue = valueIn(before, dimension);
    if (currentValue === null || previousValue === null) continue;
    deltas.push({ dimension, delta: currentValue - previousValue });
  }
  deltas.sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta) || byText(a.dimension, b.dimension));
  const floor = Math.max(limits.minAbsolute, limits.minShare * Math.abs(totalDelta));
  const contributors = deltas
    .filter((entry) => entry.delta !== 0 && Math.abs(entry.delta) >= floor)
    .slice(0, limits.maxContributors);
  const named = contributors.reduce((sum, entry) => sum + entry.delta, 0);
  const other = totalDelta - named;
  const explainedShare =
    totalDelta === 0 || contributors.length === 0
      ? 0
      : Math.min(1, Math.max(0, 1 - Math.abs(other) / Math.abs(totalDelta)));
  return { contributors, other, explainedShare };
}
