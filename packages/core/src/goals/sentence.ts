import type { TTableMetric } from "../contract/dashboards";
import { formatNumber } from "../format/number";
import type { GoalProgress, GoalStatus } from "./pace";

/**
 * Every word of a goal's line and of the goals' summary, in one place so a translation replaces this
 * file's table and nothing else: the numbers arrive already formatted, the words only arrange them.
 */
export const GOAL_WORDS = {
  progress: (value: string, threshold: string, percent: string | null) =>
    percent === null ? `${value} of ${threshold}` : `${value} of ${threshold} (${percent})`,
  noData: (threshold: string) => `No data yet of ${threshold}`,
  daysLeft: (days: number) => (days === 1 ? "1 day left" : `${days} days left`),
  ended: "ended",
  met: "target met",
  onPace: (projected: string, gap: string, side: Exclude<GoalStatus, "met" | "unknown">) =>
    `on pace for ${projected}, ${gap} ${side}`,
  endedGap: (gap: string, side: Exclude<GoalStatus, "met" | "unknown">) => `${gap} ${side}`,
  noBaseline: "no comparison value to measure the change against",
  noPace: "too little data for a pace",
  separator: " · ",
  summaryCount: (onTrack: number, total: number) => `${onTrack} of ${total} ${total === 1 ? "goal" : "goals"} on track`,
  summaryWorst: (label: string, gap: string, side: "short" | "over") => `${label} ${gap} ${side}`,
} as const;

type MetricDisplay = Pick<TTableMetric, "format" | "currency">;

/** The parts of a goal's line, each already in words, for a view that lays them out itself. */
export interface GoalLineParts {
  /** "58,439 of 70,000 (83 %)" */
  progress: string;
  /** "3 days left" or "ended". */
  time: string;
  /** "on pace for 64,100, 8 % short", "target met", …; null when there is nothing to say. */
  pace: string | null;
}

/** A percent of the line: whole numbers, "83 %" (a gap under 1 % says "<1 %", never "0 % short"). */
function percentText(share: number): string {
  const rounded = Math.round(Math.abs(share));
  return rounded === 0 && share !== 0 ? "<1 %" : `${rounded} %`;
}

/** A projection is an estimate: three significant digits from the thousands up (64,100, not 64,087.3). */
function roughly(value: number): number {
  if (Math.abs(value) < 1000) return value;
  const scale = 10 ** (Math.floor(Math.log10(Math.abs(value))) - 2);
  return Math.round(value / scale) * scale;
}

/** The parts of a goal's line, numbers shown as the widget shows its metric (format, currency). */
export function goalLineParts(goal: GoalProgress, metric: MetricDisplay): GoalLineParts {
  const show = (value: number) => formatNumber(value, { format: metric.format, currency: metric.currency ?? null });
  const threshold = goal.threshold === null ? null : show(goal.threshold);
  const progress =
    threshold === null
      ? goal.value === null
        ? GOAL_WORDS.noBaseline
        : show(goal.value)
      : goal.value === null
        ? GOAL_WORDS.noData(threshold)
        : GOAL_WORDS.progress(
            show(goal.value),
            threshold,
            goal.progress === null ? null : percentText(goal.progress * 100),
          );
  const time = goal.daysLeft > 0 ? GOAL_WORDS.daysLeft(goal.daysLeft) : GOAL_WORDS.ended;
  let pace: string | null = null;
  const gap = goal.gapPercent === null ? null : percentText(goal.gapPercent);
  if (goal.status === "met") pace = GOAL_WORDS.met;
  else if (goal.status === "unknown") pace = goal.threshold === null ? null : GOAL_WORDS.noPace;
  else if (gap !== null && (goal.daysLeft === 0 || goal.projected === null))
    pace = GOAL_WORDS.endedGap(gap, goal.status);
  else if (gap !== null && goal.projected !== null)
    pace = GOAL_WORDS.onPace(show(roughly(goal.projected)), gap, goal.status);
  return { progress, time, pace };
}

/** "58,439 of 70,000 (83 %) · 3 days left · on pace for 64,100, 8 % short" */
export function goalLine(goal: GoalProgress, metric: MetricDisplay): string {
  const parts = goalLineParts(goal, metric);
  return [parts.progress, parts.time, parts.pace].filter((part) => part !== null).join(GOAL_WORDS.separator);
}

/** One goal as the summary counts it. */
export interface GoalSummaryItem {
  label: string;
  status: GoalStatus;
  gapPercent: number | null;
}

/**
 * The goals' line of the insights summary: "2 of 5 goals on track; Revenue 12 % short", naming the goal
 * furthest off; goals without a verdict ('unknown') are not counted. Null when no goal has a verdict.
 */
export function goalsSummary(goals: readonly GoalSummaryItem[]): string | null {
  const judged = goals.filter((goal) => goal.status !== "unknown");
  if (judged.length === 0) return null;
  const onTrack = judged.filter((goal) => goal.status === "met" || goal.status === "ahead" || goal.status === "under");
  const count = GOAL_WORDS.summaryCount(onTrack.length, judged.length);
  const off = judged
    .filter((goal) => (goal.status === "short" || goal.status === "over") && goal.gapPercent !== null)
    .sort((a, b) => Math.abs(b.gapPercent as number) - Math.abs(a.gapPercent as number))[0];
  if (!off) return count;
  return `${count}; ${GOAL_WORDS.summaryWorst(off.label, percentText(off.gapPercent as number), off.status as "short" | "over")}`;
}
