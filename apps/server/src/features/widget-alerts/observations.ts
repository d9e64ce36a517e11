import {
  type DailyValue,
  type DayRange,
  evaluateWidgetAlert,
  shiftDay,
  type TInteractiveWidget,
  type TTable,
  type TTableMetric,
  type TWidgetGoalResult,
  uniquePrefix,
  type WidgetAlertClock,
  type WidgetAlertCondition,
  type WidgetAlertDirection,
  type WidgetAlertMetric,
  type WidgetAlertVerdict,
  type widgetAlertMetrics,
  widgetAlertPeriod,
} from "@app/core";
import { lagDaysOf } from "../../connectors";
import type { AppContext } from "../../context";
import type { WidgetAlertsDeps } from "./deps";
import type { WidgetAlertRow } from "./repo";

/** Weeks of daily history an anomaly rule learns from (core ANOMALY_DEFAULTS.weeks plus the judged week). */
export const ANOMALY_HISTORY_WEEKS = 9;

type Observed = { table: TTable; previous: TTable | null; goals?: readonly TWidgetGoalResult[] } | { error: string };
type Series = { series: DailyValue[]; column: TTableMetric } | { error: string };
/** A rule judged against what was observed, or why nothing could be observed. */
export type Judged = { error: string } | { verdict: WidgetAlertVerdict; label: string };

/**
 * What an evaluation observes of a widget: its totals over the dashboard's period (and the one before),
 * or one instance's metric by day for anomaly rules, asked through the same widget-data path and caches
 * as the dashboard (widgets/service.ts), and each rule judged against it (core evaluateWidgetAlert).
 */
export function widgetObservations(ctx: AppContext, deps: WidgetAlertsDeps) {
  /**
   * The widget's data over its dashboard's period and the comparison period, as the dashboard asks;
   * with `withGoals`, the widget's goals too, computed by the widget-data answer (widgets/goals.ts) so an
   * off-pace rule judges exactly the verdict the widget shows.
   */
  async function totalsOf(
    companyId: string,
    widget: TInteractiveWidget,
    range: DayRange,
    withGoals: boolean,
    timezone: string,
  ): Promise<Observed> {
    try {
      const data = await deps.widgets().data(companyId, {
        instances: [...widget.instances],
        startDate: range.startDate,
        endDate: range.endDate,
        comparison: true,
        timezone,
        ...(withGoals && widget.goals && widget.goals.length > 0 && { goals: [...widget.goals] }),
      });
      return { table: data.current, previous: data.previous, goals: data.goals };
    } catch (error) {
      ctx.logger.warn({ err: error, widget: widget.id }, "a widget alert could not fetch its widget's data");
      return { error: "The widget's data could not be fetched; the alert is evaluated again at the next pass." };
    }
  }

  /** One instance's metric by day, up to the latest complete day (the instance alone, with the date dimension). */
  async function seriesOf(
    companyId: string,
    widget: TInteractiveWidget,
    metric: WidgetAlertMetric,
    { lastDay, zone }: WidgetAlertClock,
  ): Promise<Series> {
    const instance = widget.instances[metric.instance];
    try {
      const data = await deps.widgets().data(companyId, {
        instances: [{ ...instance, inputs: { ...instance.inputs, dimension: "date" } }],
        startDate: shiftDay(lastDay, -(7 * ANOMALY_HISTORY_WEEKS - 1)),
        endDate: lastDay,
        comparison: false,
        timezone: zone,
      });
      // Alone in the request, the instance keeps its own prefix (made unique only among several).
      const key = `${uniquePrefix(instance.prefix, new Set())}.${metric.metric}`;
      const index = data.current.metrics.findIndex((each) => each.key === key);
      if (index < 0) return { error: "The widget's data has no such metric any more." };
      const series = data.current.rows.flatMap((row) =>
        row.dimension ? [{ day: row.dimension, value: row.values[index] ?? null }] : [],
      );
      return { series, column: data.current.metrics[index] };
    } catch (error) {
      ctx.logger.warn({ err: error, widget: widget.id }, "a widget alert could not fetch its widget's daily data");
      return { error: "The widget's data could not be fetched; the alert is evaluated again at the next pass." };
    }
  }

  return {
    /**
     * A judge for one evaluation pass of a company: one observation per widget (totals) or per metric
     * (daily series for anomaly rules), shared by the pass's rules. Every rule reads the widget as the
     * dashboard shows it on `clock`, the company's zone and its today (core widgetAlertClock).
     */
    forPass(companyId: string, clock: WidgetAlertClock) {
      const totals = new Map<string, Observed>();
      const daily = new Map<string, Series>();
      // One observation per widget (totals) or per metric (daily series for anomaly rules), shared by rules.
      return async function judge(
        row: WidgetAlertRow,
        widget: TInteractiveWidget,
        metric: ReturnType<typeof widgetAlertMetrics>[number],
        rule: { condition: WidgetAlertCondition; value: number | null; direction: WidgetAlertDirection },
      ): Promise<Judged> {
        if (rule.condition === "anomaly") {
          const key = `${row.dashboard_id}\u0000${row.widget_id}\u0000${row.metric}`;
          if (!daily.has(key)) daily.set(key, await seriesOf(companyId, widget, metric, clock));
          const observed = daily.get(key) as Series;
          if ("error" in observed) return { error: observed.error };
          const { column } = observed;
          const lagDays = lagDaysOf([widget.instances[metric.instance]]);
          const verdict = evaluateWidgetAlert(rule, {
            label: column.label,
            format: column.format,
            currency: column.currency ?? null,
            current: null,
            series: observed.series,
            lagDays,
          });
          return { verdict, label: column.label };
        }
        // Goals cost daily queries: only off-pace rules ask for them (a widget's other rules share the plain totals).
        const withGoals = rule.condition === "offPace";
        const key = `${row.dashboard_id}\u0000${row.widget_id}\u0000${withGoals ? "goals" : ""}`;
        // The widget as the dashboard shows it in the company's zone: its preset's days there (and, for an
        // off-pace rule, the goal's "today" there).
        const period = widgetAlertPeriod(row.dashboard_range_type, clock.today);
        if (!totals.has(key)) totals.set(key, await totalsOf(companyId, widget, period, withGoals, clock.zone));
        const observed = totals.get(key) as Observed;
        if ("error" in observed) return { error: observed.error };
        const index = observed.table.metrics.findIndex((each) => each.key === row.metric);
        const column = observed.table.metrics[index];
        const label = column?.label ?? metric.name ?? metric.metric;
        const verdict = evaluateWidgetAlert(rule, {
          label,
          format: column?.format,
          currency: column?.currency ?? null,
          current: index < 0 ? null : (observed.table.totals[index] ?? null),
          previous: index < 0 ? null : (observed.previous?.totals[index] ?? null),
          goal: observed.goals?.find((goal) => goal.metric === row.metric) ?? null,
        });
        return { verdict, label };
      };
    },
  };
}
