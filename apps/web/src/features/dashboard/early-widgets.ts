import type { TInteractiveWidget } from "@app/core";
import { type PublicAccess, preloadChartCode, type WidgetRange, widgetDataQuery } from "../widgets";
import { startEarlyWidgetData } from "../widgets/api";
import type { LoadedDashboard } from "./api";
import { peekEarlyDashboard } from "./early-fetch";
import { initialRange, widgetRangeOf } from "./range";

/**
 * Once the dashboard's early answer is in (early-fetch.ts) and the screen's code has loaded, its widgets'
 * data is asked for at once, with the range and access the screen will ask with, and a member's view
 * loads its chart code: both run while the app renders the screen, instead of after it
 * (docs/decisions.md, "The owner's dashboard draws in half a second").
 */
export function startEarlyWidgets(loaded: LoadedDashboard, timezone: string, password: string | null): void {
  const { range, access } = firstWidgetRequests(loaded, timezone, window.location.search, password);
  startEarlyWidgetData(loaded.dashboard.widgets, range, access);
  if (!loaded.isPublic) preloadChartCode(loaded.dashboard.widgets);
}

/**
 * The range and access the dashboard's screen first asks its widgets' data with, at an address whose
 * query string is `search`: the screen's own (DashboardView.tsx), found before it has rendered.
 */
function firstWidgetRequests(loaded: LoadedDashboard, timezone: string, search: string, password: string | null) {
  const { dashboard, isPublic } = loaded;
  const range: WidgetRange = widgetRangeOf(initialRange(dashboard, new URLSearchParams(search)), timezone);
  const access: PublicAccess | null = isPublic ? { permalink: dashboard.permalink, password } : null;
  return { range, access };
}

/**
 * The widget data queries the dashboard's screen will run first, as its cards build them: the server's
 * render (ssr/server-entry.tsx) asks for them as soon as the dashboard is in, rather than rendering every
 * card loading only to find them.
 */
export function firstWidgetQueries(loaded: LoadedDashboard, timezone: string, search: string, password: string | null) {
  const { range, access } = firstWidgetRequests(loaded, timezone, search, password);
  return loaded.dashboard.widgets
    .filter((widget): widget is TInteractiveWidget => widget.nature === "interactive")
    .map((widget) => widgetDataQuery(widget, range, access));
}

/**
 * Called as the dashboard screen's code is evaluated (DashboardScreen.tsx), before React renders it: here
 * and not in the app's entry, so that this code and what it imports stay in the screen's own chunks.
 */
export function startWithEarlyDashboard(): void {
  const view = peekEarlyDashboard();
  view?.promise.then(
    (loaded) => startEarlyWidgets(loaded, view.timezone, view.password),
    () => {},
  );
}
