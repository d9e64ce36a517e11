import type { DayRange, TTable } from "@app/core";
import { daysBetween, shiftDay } from "@app/core";
import {
  type ColumnMap,
  columnKeys,
  columnMetrics,
  type DomainMetrics,
  type DomainMetricsSource,
  tableDomainValues,
} from "./kit/domain-metrics";
import { metricHeader } from "./kit/metrics";
import type { QueryInputs } from "./types";

/**
 * The table of a rank tracker (SE Ranking, Rank Ranger): tracked keywords checked on some days, a
 * position per check. Average position is lower-is-better and never summed: a row's or the total's
 * value is the mean of its ranked checks. Keyword counts (top 3/10/30/100) are a state, not a flow: a
 * grouped row counts its series on their last check in the range, a day counts that day's checks, and
 * the total is the count on the range's last checked day, never a sum over days.
 */

/** A metric: the average position, or (with `top`) the tracked keywords ranked at `top` or better. */
export interface RankMetric {
  key: string;
  label: string;
  format: "number";
  lowerIsBetter?: true;
  top?: number;
}

export const RANK_METRICS: readonly RankMetric[] = [
  { key: "averagePosition", label: "Average position", format: "number", lowerIsBetter: true },
  { key: "top3", label: "Keywords in top 3", format: "number", top: 3 },
  { key: "top10", label: "Keywords in top 10", format: "number", top: 10 },
  { key: "top30", label: "Keywords in top 30", format: "number", top: 30 },
  { key: "top100", label: "Keywords in top 100", format: "number", top: 100 },
];

/** One tracked keyword (on one search engine): its checks, `pos` 0 or null when not in the results. */
export interface RankSeries {
  /** The row it belongs to when the table is not by date (the keyword, the search engine …). */
  label: string;
  checks: readonly { date: string; pos: number | null }[];
}

/** The declared metrics asked for, in the form's order. */
export function chosenRankMetrics(inputs: QueryInputs): RankMetric[] {
  const keys = Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : [];
  return keys.flatMap((key) => RANK_METRICS.filter((metric) => metric.key === key));
}

const ranked = (pos: number | null | undefined): pos is number => typeof pos === "number" && pos > 0;

const mean = (values: number[]): number | null =>
  values.length > 0 ? Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100 : null;

/** The values of some checks: the average over `averageOver`, the counts over `latest` (one per series). */
function values(metrics: RankMetric[], averageOver: (number | null)[], latest: (number | null)[]): (number | null)[] {
  return metrics.map((metric) => {
    const top = metric.top;
    return top === undefined
      ? mean(averageOver.filter(ranked))
      : latest.filter((pos) => ranked(pos) && pos <= top).length;
  });
}

/** The table by date (every day of the range; days without a check are N/A) or by the series' labels. */
export function rankTable(
  allSeries: readonly RankSeries[],
  metrics: RankMetric[],
  dimension: { key: string; label: string },
  range: DayRange,
): TTable {
  const series = allSeries.map((entry) => ({
    label: entry.label,
    checks: entry.checks.filter((check) => check.date >= range.startDate && check.date <= range.endDate),
  }));
  const checkedDays = [...new Set(series.flatMap((entry) => entry.checks.map((check) => check.date)))].sort();
  const lastDay = checkedDays.at(-1);
  const onDay = (day: string | undefined) =>
    series.map((entry) => entry.checks.find((check) => check.date === day)?.pos ?? null);
  const latest = (entry: (typeof series)[number]) =>
    entry.checks.reduce<{ date: string; pos: number | null } | null>(
      (found, check) => (!found || check.date > found.date ? check : found),
      null,
    )?.pos ?? null;

  let rows: TTable["rows"];
  if (dimension.key === "date") {
    rows = Array.from({ length: daysBetween(range.startDate, range.endDate) + 1 }, (_, index) => {
      const day = shiftDay(range.startDate, index);
      if (!checkedDays.includes(day)) return { dimension: day, values: metrics.map(() => null) };
      return { dimension: day, values: values(metrics, onDay(day), onDay(day)) };
    });
  } else {
    const labels = [...new Set(series.map((entry) => entry.label))];
    rows = labels
      .map((label) => {
        const group = series.filter((entry) => entry.label === label);
        const positions = group.flatMap((entry) => entry.checks.map((check) => check.pos));
        return {
          dimension: label,
          average: mean(positions.filter(ranked)),
          values: values(metrics, positions, group.map(latest)),
        };
      })
      // Best ranked first, rows not ranked in the range last.
      .sort(
        (a, b) =>
          (a.average ?? Number.MAX_VALUE) - (b.average ?? Number.MAX_VALUE) || a.dimension.localeCompare(b.dimension),
      )
      .map(({ dimension: label, values: row }) => ({ dimension: label, values: row }));
  }
  return {
    dimension: { key: dimension.key, label: dimension.label, kind: dimension.key === "date" ? "date" : "string" },
    metrics: metrics.map((metric) => metricHeader(metric)),
    rows,
    totals: lastDay
      ? values(
          metrics,
          series.flatMap((entry) => entry.checks.map((check) => check.pos)),
          onDay(lastDay),
        )
      : metrics.map(() => null),
  };
}

/** What a rank tracker's rankings table gives Mission Control per checked day → the catalogue's key. */
const RANK_DOMAIN_COLUMNS: ColumnMap = [
  ["averagePosition", "averagePosition"],
  ["top3", "keywordsTop3"],
  ["top10", "keywordsTop10"],
];

/**
 * A rank tracker's domain metrics (docs/decisions.md, "Mission Control metric sources"): the project
 * that tracks the domain gives average position and the keywords in the top 3/10 of the tracked
 * keywords, by day through the rankings widget query `type`. They win over the others' (precedence 1):
 * the tracked keywords are the fixed set the agency chose, while Search Console's average drifts with
 * long-tail queries. `project` finds the project (its plan name and the query's inputs besides the
 * metrics), or null. A day once checked is complete.
 */
export function rankTrackerDomainMetrics(
  order: number,
  type: string,
  project: (
    source: DomainMetricsSource,
    domain: string,
  ) => Promise<{ plan: string; inputs: Record<string, unknown> } | null>,
): DomainMetrics {
  return {
    order,
    metrics: columnMetrics(RANK_DOMAIN_COLUMNS),
    precedence: 1,
    lagDays: 0,
    hint: "a rank tracker",
    async locate(source, domain) {
      const found = await project(source, domain);
      if (!found) return null;
      const inputs = { dimension: "date", metrics: columnKeys(RANK_DOMAIN_COLUMNS), ...found.inputs };
      return {
        plan: found.plan,
        read: async (range) => tableDomainValues(await source.query(type, inputs, range), RANK_DOMAIN_COLUMNS),
      };
    },
  };
}
