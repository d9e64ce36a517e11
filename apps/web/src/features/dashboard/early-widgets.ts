import { preloadChartCode } from "../widgets";
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
  const { dashboard, isPublic } = loaded;
  const range = widgetRangeOf(initialRange(dashboard, new URLSearchParams(window.location.search)), timezone);
  startEarlyWidgetData(dashboard.widgets, range, isPublic ? { permalink: dashboard.permalink, password } : null);
  if (!isPublic) preloadChartCode(dashboard.widgets);
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
