import {
  type DayRange,
  dashboardInsights,
  defaultCompareRange,
  goalsSummary,
  type Insight,
  type InsightWidget,
  insightWidgetSettings,
  rangeSettled,
  type TDashboardInsights,
  type TDashboardWidgetDataRequest,
  type TInsightStatement,
  type TInteractiveWidget,
  type TWidget,
  todayInTimezone,
  widgetInsights,
} from "@app/core";
import { translatorFor } from "@app/core/i18n/catalogues";
import { translateLabel, typedLabels } from "@app/core/i18n/label-text";
import { labelCatalogue } from "@app/core/i18n/labels";
import { lagDaysOf } from "../../connectors";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import type { DashboardsService } from "../dashboards/service";
import type { Actor } from "../users/service";
import type { WidgetsService } from "../widgets/service";
import { optionalQueryAllowed } from "./budget";
import { widgetReads } from "./widget-reads";

/** Widgets whose data is asked for at once: a dashboard's widgets share the providers' quotas and slots. */
const CONCURRENCY = 4;

export { HISTORY_DAYS } from "./widget-reads";

async function eachLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]);
    }
  });
  await Promise.all(runners);
  return results;
}

function statement(insight: Insight): TInsightStatement {
  const { widgetId, metricKey, metricLabel, direction, tone, sentence } = insight;
  return { widgetId, metricKey, metricLabel, direction, tone, sentence };
}

type WidgetData = Awaited<ReturnType<ReturnType<typeof widgetReads>["dataOf"]>>;

/**
 * The goals, counted ("1 of 2 goals on track; Sessions 12 % short"): each widget's goals as its answer
 * computes them (the page's own request), or null when no goal has a verdict; in the dashboard's
 * language, its metrics' labels too (a calculated metric's typed name stays as typed). `known` holds the
 * answers already read with the widget's goals (forWidgets' sentences read them so): those are not asked again.
 */
async function goalsLine(
  dataOf: ReturnType<typeof widgetReads>["dataOf"],
  companyId: string,
  interactive: readonly TInteractiveWidget[],
  request: TDashboardWidgetDataRequest,
  language: string | null,
  known: ReadonlyMap<string, WidgetData> = new Map(),
): Promise<string | null> {
  const labels = labelCatalogue(language);
  const withGoals = interactive.filter((widget) => (widget.goals?.length ?? 0) > 0);
  const goalItems = await eachLimited(withGoals, CONCURRENCY, async (widget) => {
    const data = known.has(widget.id)
      ? known.get(widget.id)
      : await dataOf(companyId, widget.instances, request, widget.goals);
    const typed = typedLabels(widget.instances);
    const said = (label: string) => (typed.has(label) ? label : translateLabel(label, labels));
    return (data?.goals ?? []).map((goal) => ({
      label: said(data?.current.metrics.find((metric) => metric.key === goal.metric)?.label ?? goal.metric),
      status: goal.status,
      gapPercent: goal.gapPercent,
    }));
  });
  return goalsSummary(goalItems.flat(), translatorFor(language));
}

/** What insights use of the server besides the two services: the shared counters and the clock. */
export interface InsightsRuntime {
  counters: RateLimitStore;
  now: () => Date;
}

/**
 * Automatic insights of a dashboard (docs/decisions.md, "Insights wiring: API, settings, page, PDF and e-mail"): each interactive widget's data is read through the
 * widgets service exactly as the page reads it (same request, so its answer and table caches and the
 * providers' quota rules apply; no second path to a provider), then judged by core's pure rules. Its
 * daily history and, for a widget without a dimension, a breakdown are the same query by another
 * dimension, asked only within the providers' budget (./budget.ts; docs/decisions.md, insights budget).
 */
export function insightsService(dashboards: DashboardsService, widgets: WidgetsService, runtime: InsightsRuntime) {
  const { dataOf, historyOf, breakdownOf } = widgetReads(widgets);

  const service = {
    /** Lines and summary for a set of saved widgets of a company, over a range (the widget-data inputs). */
    async forWidgets(
      companyId: string,
      saved: readonly TWidget[],
      request: TDashboardWidgetDataRequest,
      /** The dashboard's language: sentences, labels, numbers and dates in it (core insightSentence). */
      language: string | null = null,
    ): Promise<TDashboardInsights> {
      const range: DayRange = { startDate: request.startDate, endDate: request.endDate };
      // The comparison the widgets service uses (effectiveCompareRange's rule): the custom one, else the default.
      const comparison: DayRange | null =
        request.comparison === false
          ? null
          : request.compareStartDate && request.compareEndDate
            ? { startDate: request.compareStartDate, endDate: request.compareEndDate }
            : defaultCompareRange(range.startDate, range.endDate);
      const timezone = request.timezone ?? "UTC";
      const today = todayInTimezone(timezone, runtime.now());
      const options = {
        currentYear: Number(today.slice(0, 4)),
        today,
        translator: translatorFor(language),
        labels: labelCatalogue(language),
      };
      const interactive = saved
        .filter((widget): widget is TInteractiveWidget => widget.nature === "interactive")
        // Live widgets show the last minutes whatever the range: they have no comparison to speak of.
        .filter((widget) => !widget.realTime)
        .sort((a, b) => a.order - b.order);
      const lines: Record<string, string | null> = {};
      // A goal widget's sentences are read with its goals: the goals' line takes them from that one answer.
      const withGoalsRead = new Map<string, WidgetData>();
      const judged = await eachLimited(interactive, CONCURRENCY, async (widget) => {
        lines[widget.id] = null;
        // Hidden by its owner: no line and no statement in the summary either.
        if (widget.hiddenInsights) return null;
        // A range its provider is still filling in is not judged (core rangeSettled): nothing to ask either.
        const lagDays = lagDaysOf(widget.instances);
        if (!comparison || !rangeSettled(range, comparison, lagDays, today)) return null;
        // The comparison is on here (checked above): the request stays as the page sent it, so the page's own
        // answer (kept by the answer cache) is found, and the goals' line below uses this very read.
        const asked = { ...request, timezone };
        const data = await dataOf(companyId, widget.instances, asked, widget.goals);
        if (widget.goals?.length) withGoalsRead.set(widget.id, data);
        if (!data?.previous) return null;
        // Each optional query asks the budget first (after the widget's own answer, which may just have
        // reported a provider's allowance running low): a second view finds them in the result store.
        const spare = () => optionalQueryAllowed(runtime.counters, widget.instances, data);
        const series = (await spare()) ? await historyOf(companyId, widget, asked) : undefined;
        let input: InsightWidget = {
          widgetId: widget.id,
          order: widget.order,
          data: { current: data.current, previous: data.previous },
          range,
          comparison,
          lagDays,
          ...(series && { series }),
          ...insightWidgetSettings(widget, data.current),
        };
        let insights = widgetInsights(input, options);
        // Contributors for a widget without a dimension, only when an additive metric has something to say.
        const ownRows = data.current.dimension !== null && data.current.dimension?.kind !== "date";
        if (!ownRows && insights.some((insight) => insight.aggregation === "sum") && (await spare())) {
          const breakdown = await breakdownOf(companyId, widget, asked);
          if (breakdown) {
            input = { ...input, breakdown };
            insights = widgetInsights(input, options);
          }
        }
        lines[widget.id] = insights[0]?.sentence ?? null;
        return input;
      });
      const inputs = judged.filter((input): input is InsightWidget => input !== null);
      const goals = await goalsLine(dataOf, companyId, interactive, { ...request, timezone }, language, withGoalsRead);
      return {
        widgets: lines,
        summary: dashboardInsights(inputs, options).map(statement),
        ...(goals !== null && { goals }),
      };
    },

    /**
     * What an automatic report's e-mail carries above its preview (docs/decisions.md, "Insights wiring:
     * API, settings, page, PDF and e-mail"; "Goals in the report e-mail, 2026-11-29"): the goals' line
     * whenever the dashboard has goals, and the sentences of its summary only when its "Insights summary
     * at the top" setting is on, in its language (without it, only the goals' own queries are asked).
     */
    async reportSummary(
      companyId: string,
      dashboardId: string,
      range: DayRange,
      timezone: string,
    ): Promise<{ goals: string | null; insights: string[] }> {
      const { widgets: saved, styles, language } = await dashboards.widgetsAndStylesById(companyId, dashboardId);
      const request = { ...range, comparison: true, timezone };
      if (styles.insightsSummary !== true) {
        const interactive = saved.filter(
          (widget): widget is TInteractiveWidget => widget.nature === "interactive" && !widget.realTime,
        );
        return { goals: await goalsLine(dataOf, companyId, interactive, request, language), insights: [] };
      }
      const { summary, goals } = await service.forWidgets(companyId, saved, request, language);
      return { goals: goals ?? null, insights: summary.map((entry) => entry.sentence) };
    },

    /** POST /api/dashboards/{permalink}/insights: for anyone who may view the dashboard (its widget-data rule). */
    async forViewer(
      viewer: Actor | null,
      permalink: string,
      request: TDashboardWidgetDataRequest,
      passwordAttempt: string | null,
      clientAddress: string,
      embedToken: string | null,
    ): Promise<TDashboardInsights> {
      const {
        companyId,
        widgets: saved,
        language,
      } = await dashboards.widgetsForViewer(viewer, permalink, passwordAttempt, clientAddress, embedToken);
      // Said in the dashboard's language for every viewer: the page, its PDF and its e-mail read alike.
      return service.forWidgets(companyId, saved, request, language);
    },
  };
  return service;
}

export type InsightsService = ReturnType<typeof insightsService>;
