import type { QueryKey } from "@tanstack/react-query";
import { catalogueLanguage, messagesQuery } from "../../lib/i18n";
import { dashboardInsightsQuery } from "../insights";
import { widgetDataQuery } from "../widgets";
import type { LoadedDashboard } from "./api";
import { dashboardQuery } from "./queries";
import { initialRange, widgetRangeOf } from "./range";

/** Asks one query as a component would (its `queryOptions`), resolving with its answer. */
export type AskQuery = (options: { queryKey: QueryKey }) => Promise<unknown>;

/**
 * What the dashboard screen at `permalink` asks for before it can draw its cards, asked by the server's
 * render before its first pass (ssr/server-entry.tsx): the dashboard, then together its language's
 * catalogue, every widget's data and, for a public viewer, the insights (a member's come once the cards
 * have drawn, in the browser). The options are the screen's own (`dashboardQuery`, `messagesQuery`,
 * `widgetDataQuery`, `dashboardInsightsQuery`, the range and widgets' order as `DashboardView` starts them), so the first pass finds every answer. Found
 * by rendering instead, they came one wave per pass: four whole renders of a 24-widget page where one
 * does. A query asked here that the screen does not ask is only wasted work; one it asks that is not here
 * is found by the render, as before.
 */
export async function askDashboardAhead(
  ask: AskQuery,
  permalink: string,
  search: string,
  timezone: string,
): Promise<void> {
  const { dashboard, isPublic } = (await ask(dashboardQuery(permalink, timezone, null))) as LoadedDashboard;
  const range = widgetRangeOf(initialRange(dashboard, new URLSearchParams(search)), timezone);
  // A public viewer's cards ask through the dashboard's link (no password: a protected view is not rendered).
  const access = isPublic ? { permalink: dashboard.permalink, password: null } : null;
  const widgets = [...dashboard.widgets].sort((a, b) => a.order - b.order);
  const insights = access && widgets.some((widget) => widget.nature === "interactive");
  // Every answer waited for, a failed one too: the render must not start while others are on their way.
  await Promise.allSettled([
    ask(messagesQuery(catalogueLanguage(dashboard.language))),
    ...widgets.flatMap((widget) =>
      widget.nature === "interactive" ? [ask(widgetDataQuery(widget, range, access))] : [],
    ),
    ...(insights ? [ask(dashboardInsightsQuery(dashboard.permalink, range, widgets, access))] : []),
  ]);
}
