import type { TTable, TWidgetGoal, TWidgetGoalResult, TWidgetInstance } from "../contract/dashboards";
import { minDay, shiftDay } from "../dates/day";
import type { DayRange } from "../dates/ranges";
import { metricAggregation } from "../insights/kind";
import type { DailyValue } from "../mission-control/change";
import { calculatedMetricDisplay } from "../widgets/calculated";
import { goalProgress } from "./pace";
import { goalClock, goalPeriodRange } from "./period";
import { goalLine, goalLineParts } from "./sentence";

/** Days of history before a goal's period its projection learns from: the seasonal band's eight weeks. */
export const GOAL_HISTORY_DAYS = 56;

/**
 * The days a goal's metric is asked for by day: its period up to yesterday (never a day to come) and the
 * eight weeks before, so each day still to come has its band. Several goals of one widget with the same
 * period share it.
 */
export function goalSeriesRange(period: TWidgetGoal["period"], range: DayRange, today: string): DayRange {
  const measured = goalPeriodRange(period, range);
  const endDate = minDay(measured.endDate, shiftDay(today, -1));
  return { startDate: shiftDay(minDay(measured.startDate, endDate), -GOAL_HISTORY_DAYS), endDate };
}

/**
 * The days whose provider total a goal's value is, when they are not the days the widget shows (a month's
 * goal on a dashboard over the last 7 days): the goal's period up to its last day with numbers. Null when
 * the widget's own total is that value, or no day of the period has numbers yet.
 */
export function goalTotalRange(period: TWidgetGoal["period"], range: DayRange, today: string): DayRange | null {
  const measured = goalPeriodRange(period, range);
  const { dataThrough } = goalClock(measured, today);
  if (dataThrough === null) return null;
  if (measured.startDate === range.startDate && dataThrough === range.endDate) return null;
  return { startDate: measured.startDate, endDate: dataThrough };
}

/** Everything one goal of a widget is computed from: the widget's answer and its metric by day. */
export interface WidgetGoalInput {
  goal: TWidgetGoal;
  instances: readonly TWidgetInstance[];
  /** The dashboard's range, as the widget's answer covers it. */
  range: DayRange;
  current: TTable;
  previous: TTable | null;
  /** The widget's instances grouped by day over goalSeriesRange; null when they have no day dimension. */
  daily: TTable | null;
  /**
   * The widget's own query over goalTotalRange's days, when that range is not null: its totals are the
   * provider's for those days (users over a month are not the days' users added up). Null or absent:
   * the days of `daily` are added up (or averaged) instead.
   */
  periodTotals?: TTable | null;
  /** Today in the dashboard's zone. */
  today: string;
  lagDays: number;
}

/** A calculated metric declares how it aggregates; a connector's column is judged by insights/kind.ts. */
function aggregationOf(key: string, instances: readonly TWidgetInstance[], metric: TTable["metrics"][number]) {
  const dot = key.indexOf(".");
  const [prefix, metricKey] = dot > 0 ? [key.slice(0, dot), key.slice(dot + 1)] : ["", key];
  const instance = instances.find((candidate) => candidate.prefix === prefix) ?? instances[0];
  const calculated = instance?.inputs.calculatedMetrics?.find((entry) => entry.id === metricKey);
  return metricAggregation(metric, calculated ? calculatedMetricDisplay(calculated.type).aggregation : undefined);
}

function totalOf(table: TTable | null | undefined, key: string): number | null {
  const index = table?.metrics.findIndex((metric) => metric.key === key) ?? -1;
  return table && index >= 0 ? (table.totals[index] ?? null) : null;
}

/**
 * One goal of the widget-data answer, or null when its metric is not in the widget's table (its
 * instance failed to load). The provider's total is the value: the widget's own when the goal measures
 * exactly the days the widget shows, else `periodTotals`'; without either, the days of `daily` are added
 * up (or averaged) by goalProgress.
 */
export function widgetGoalResult(input: WidgetGoalInput): TWidgetGoalResult | null {
  const { goal, current, today } = input;
  const index = current.metrics.findIndex((metric) => metric.key === goal.metric);
  if (index < 0) return null;
  const metric = current.metrics[index];
  const period = goalPeriodRange(goal.period, input.range);
  const { dataThrough } = goalClock(period, today);
  const sameDays =
    dataThrough !== null && period.startDate === input.range.startDate && dataThrough === input.range.endDate;
  const dailyIndex = input.daily?.metrics.findIndex((column) => column.key === goal.metric) ?? -1;
  const series: DailyValue[] =
    input.daily && dailyIndex >= 0
      ? input.daily.rows.map((row) => ({ day: String(row.dimension), value: row.values[dailyIndex] ?? null }))
      : [];
  const aggregation = aggregationOf(goal.metric, input.instances, metric);
  const lowerIsBetter = metric.lowerIsBetter ?? false;
  const result = goalProgress({
    target: goal.target,
    period: goal.period,
    range: period,
    today,
    lagDays: input.lagDays,
    aggregation,
    lowerIsBetter,
    series,
    total: sameDays ? current.totals[index] : totalOf(input.periodTotals, goal.metric),
    baseline: goal.period === "change" ? (input.previous?.totals[index] ?? null) : null,
  });
  const display = { format: metric.format, currency: metric.currency ?? null };
  // In English, for the answer's readers (the owner's alerts quote it); a view words the figures in the
  // dashboard's language itself (core goalLineParts with its translator).
  const named = { ...result, period: goal.period, startDate: period.startDate };
  const parts = goalLineParts(named, display);
  return {
    metric: goal.metric,
    target: goal.target,
    period: goal.period,
    startDate: period.startDate,
    endDate: period.endDate,
    dataThrough: result.dataThrough,
    settledThrough: result.settledThrough,
    daysTotal: result.daysTotal,
    daysLeft: result.daysLeft,
    aggregation,
    lowerIsBetter,
    threshold: result.threshold,
    baseline: goal.period === "change" ? (input.previous?.totals[index] ?? null) : null,
    value: result.value,
    progress: result.progress,
    projected: result.projected,
    onTrack: result.onTrack,
    status: result.status,
    gapPercent: result.gapPercent,
    line: goalLine(named, display),
    parts,
  };
}
