import type { TInteractiveWidget, TWidget } from "@app/core";
import { arrivalGroups } from "../../lib/coalesce";
import { fetchPublicWidgetData, fetchWidgetData, type PublicAccess, type WidgetDataResult } from "./api";
import { holdLiveCharts } from "./charts/live-queue";

/** The period a widget shows; compare dates only when the dashboard uses a custom comparison. */
export interface WidgetRange {
  startDate: string;
  endDate: string;
  compareStartDate: string | null;
  compareEndDate: string | null;
  timezone: string;
}

/** The period of a data request (a widget's, the dashboard's insights): compared, in the range's zone. */
export function requestPeriod(range: WidgetRange) {
  return {
    startDate: range.startDate,
    endDate: range.endDate,
    ...(range.compareStartDate && range.compareEndDate
      ? { compareStartDate: range.compareStartDate, compareEndDate: range.compareEndDate }
      : {}),
    comparison: true,
    timezone: range.timezone,
  };
}

/** A widget's data request, as members (its instances) or public viewers (the saved widget's id) send it. */
function widgetDataRequest(widget: TInteractiveWidget, range: WidgetRange, access: PublicAccess | null) {
  const period = requestPeriod(range);
  return access
    ? ({ access, widgetId: widget.id, period } as const)
    : ({
        access: null,
        // The widget's goals are answered with its data (an unsaved edit's too); a public viewer's come
        // from the saved widget.
        body: {
          widgetId: widget.id,
          instances: widget.instances,
          ...period,
          ...(widget.goals && widget.goals.length > 0 ? { goals: widget.goals } : {}),
        },
      } as const);
}

/** Sends a widget's data request (POST /api/widgets/data, or the public dashboard's widget route). */
export function requestWidgetData(
  widget: TInteractiveWidget,
  range: WidgetRange,
  access: PublicAccess | null,
  signal?: AbortSignal,
): Promise<WidgetDataResult> {
  const request = widgetDataRequest(widget, range, access);
  return request.access
    ? fetchPublicWidgetData(request.access, request.widgetId, request.period, signal)
    : fetchWidgetData(request.body, signal);
}

interface Early {
  promise: Promise<WidgetDataResult>;
  /** The answer once it came (read synchronously when the dashboard first renders). */
  data?: WidgetDataResult;
}

/**
 * Answers asked for before the app rendered the dashboard (docs/decisions.md, "The owner's dashboard
 * draws in half a second"), by the exact request they answer: a widget whose request differs (another
 * range, an edited widget) asks again as it always did.
 */
const early = new Map<string, Early>();

/**
 * Answers that come while others are still on their way wait for them up to this long and are handed
 * to their cards' queries together, drawn in one React render (lib/coalesce.ts): 24 answers came over
 * ~150–250 ms and each was a render and commit of its own.
 */
const GROUP_MS = 40;
const answerGroups = arrivalGroups(GROUP_MS);

const requestKey = (widget: TInteractiveWidget, range: WidgetRange, access: PublicAccess | null) =>
  JSON.stringify(widgetDataRequest(widget, range, access));

/**
 * Asks for every data widget's answer at once, as soon as the dashboard is known: the requests then run
 * while the app's code loads and renders, instead of after each card's first render.
 */
export function startEarlyWidgetData(widgets: TWidget[], range: WidgetRange, access: PublicAccess | null): void {
  for (const widget of widgets) {
    if (widget.nature !== "interactive") continue;
    const key = requestKey(widget, range, access);
    if (early.has(key)) continue;
    const sent = requestWidgetData(widget, range, access);
    const entry: Early = { promise: answerGroups.join(sent) };
    // Its failure is reported by the query that takes it, if any.
    entry.promise.catch(() => {});
    // Until the answers are in (their cards then hold while they draw them), what waits for the cards'
    // first drawing waits for them too (charts/live-queue.ts).
    const release = holdLiveCharts();
    sent.then(
      (data) => {
        entry.data = data;
        release();
      },
      // A failure is the card's own request's to report: the early one is dropped, the card asks again.
      () => {
        early.delete(key);
        release();
      },
    );
    early.set(key, entry);
  }
}

/** The early request for exactly this widget's request, once; null when there is none. */
export function takeEarlyWidgetData(
  widget: TInteractiveWidget,
  range: WidgetRange,
  access: PublicAccess | null,
): Promise<WidgetDataResult> | null {
  const key = requestKey(widget, range, access);
  const entry = early.get(key);
  if (!entry) return null;
  early.delete(key);
  return entry.promise;
}

/**
 * The early answers that have already come, taken (each once) with their widget: the dashboard puts them in
 * its query cache before its first render, so those cards draw their data in that render (one commit)
 * instead of a skeleton and then one commit per answer.
 */
export function takeArrivedWidgetData(
  widgets: TWidget[],
  range: WidgetRange,
  access: PublicAccess | null,
): Array<{ widget: TInteractiveWidget; data: WidgetDataResult }> {
  const arrived: Array<{ widget: TInteractiveWidget; data: WidgetDataResult }> = [];
  for (const widget of widgets) {
    if (widget.nature !== "interactive") continue;
    const key = requestKey(widget, range, access);
    const data = early.get(key)?.data;
    if (!data) continue;
    early.delete(key);
    arrived.push({ widget, data });
  }
  return arrived;
}
