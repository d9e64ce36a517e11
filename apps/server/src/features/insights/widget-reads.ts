import {
  type DailyValue,
  DIMENSION_PARAM,
  type InsightWidget,
  shiftDay,
  type TDashboardWidgetDataRequest,
  type TInteractiveWidget,
  type TWidgetDataResponse,
} from "@app/core";
import { AppError } from "../../infra/errors";
import { SourceFailure } from "../sources/service";
import type { WidgetsService } from "../widgets/service";
import { extraDimension } from "./budget";

type WidgetData = TWidgetDataResponse["data"];

/** Days of history before the range for the notability band: Mission Control's eight weeks. */
export const HISTORY_DAYS = 56;

/** The instances with their dimension set to `dimension`: the same query, grouped differently. */
const byDimension = (instances: TInteractiveWidget["instances"], dimension: string) =>
  instances.map((instance) => ({ ...instance, inputs: { ...instance.inputs, [DIMENSION_PARAM]: dimension } }));

/**
 * What insights read of a widget, each through the widgets service exactly as the page reads it: its
 * data, its metrics by day (its history) and, for a widget without a dimension, a breakdown.
 */
export function widgetReads(widgets: WidgetsService) {
  /** One widget's data as its page request gets it, or null when it has none to judge (no source, failing). */
  async function dataOf(
    companyId: string,
    instances: TInteractiveWidget["instances"],
    range: TDashboardWidgetDataRequest,
    goals: TInteractiveWidget["goals"] = undefined,
  ): Promise<WidgetData | null> {
    try {
      // The public widget-data route's body: its answer may already be cached from the page's own load.
      const answer = await widgets.dataAnswer(companyId, { ...range, instances, ...(goals?.length && { goals }) });
      return (JSON.parse(answer.json.toString("utf8")) as TWidgetDataResponse).data;
    } catch (error) {
      // A widget the page shows as 'Data Error' or as an unfinished form has nothing to say.
      if (error instanceof SourceFailure) return null;
      // A bad range is the request's fault (422 as the widget-data route says it); a widget's own
      // unfinished inputs (fields under `instances.`) only silence that widget.
      if (error instanceof AppError && error.code !== "validation") return null;
      if (error instanceof AppError && Object.keys(error.fields ?? {}).every((field) => field.startsWith("instances.")))
        return null;
      throw error;
    }
  }

  /** The widget's metrics by day from HISTORY_DAYS before the range through its end, by column key. */
  async function historyOf(
    companyId: string,
    widget: TInteractiveWidget,
    request: TDashboardWidgetDataRequest,
  ): Promise<Record<string, DailyValue[]> | undefined> {
    // A line chart by day is its own history.
    if (widget.instances[0]?.inputs[DIMENSION_PARAM] === "date") return undefined;
    const dimension = extraDimension(widget.instances, "date");
    if (!dimension) return undefined;
    const data = await dataOf(companyId, byDimension(widget.instances, dimension), {
      startDate: shiftDay(request.startDate, -HISTORY_DAYS),
      endDate: request.endDate,
      comparison: false,
      timezone: request.timezone,
    });
    if (data?.current.dimension?.kind !== "date") return undefined;
    const { metrics, rows } = data.current;
    return Object.fromEntries(
      metrics.map((metric, index) => [
        metric.key,
        rows.map((row) => ({ day: row.dimension as string, value: row.values[index] ?? null })),
      ]),
    );
  }

  /** Both periods by the connector's most informative dimension, for a widget whose table has none. */
  async function breakdownOf(
    companyId: string,
    widget: TInteractiveWidget,
    request: TDashboardWidgetDataRequest,
  ): Promise<InsightWidget["breakdown"]> {
    const dimension = extraDimension(widget.instances, "breakdown");
    if (!dimension) return undefined;
    const data = await dataOf(companyId, byDimension(widget.instances, dimension), request);
    const kind = data?.current.dimension?.kind;
    if (!data?.previous || kind === undefined || kind === "date") return undefined;
    return { current: data.current, previous: data.previous };
  }

  return { dataOf, historyOf, breakdownOf };
}
