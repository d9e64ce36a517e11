import { matchRoute, type TPageData } from "@app/core";
import { fetchDashboard, type LoadedDashboard } from "./api";

const PASSWORD_KEY = (permalink: string) => `dashboard-password:${permalink}`;

/** The password this tab opened a protected dashboard with, if any (sessionStorage). */
export function storedPassword(permalink: string): string | null {
  try {
    return sessionStorage.getItem(PASSWORD_KEY(permalink));
  } catch {
    return null;
  }
}

export function storePassword(permalink: string, password: string | null): void {
  try {
    if (password) sessionStorage.setItem(PASSWORD_KEY(permalink), password);
    else sessionStorage.removeItem(PASSWORD_KEY(permalink));
  } catch {
    // Without storage the password is asked again after a reload.
  }
}

export function browserTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** The zone a dashboard's range is computed in: the user's, else the browser's. */
export function viewerTimezone(pageData: Pick<TPageData, "session">): string {
  return pageData.session?.timezone || browserTimezone();
}

let early: { key: string; promise: Promise<LoadedDashboard>; timezone: string; password: string | null } | null = null;

const keyOf = (permalink: string, timezone: string, password: string | null) =>
  JSON.stringify([permalink, timezone, password]);

/**
 * Opening a dashboard's address starts its request as soon as the app's entry runs, instead of after
 * the screen has loaded and rendered: on a slow phone that overlap brings its title (the page's largest
 * text) up by the time the app takes to start.
 */
export function startEarlyDashboardFetch(pageData: Pick<TPageData, "session">): void {
  const match = matchRoute(window.location.pathname);
  if (match?.route.name !== "dashboard.show") return;
  const permalink = match.params.permalink ?? "";
  const timezone = viewerTimezone(pageData);
  const password = storedPassword(permalink);
  const promise = fetchDashboard(permalink, timezone, password);
  // A failure is reported by the screen's own request (the early answer is simply not used).
  promise.catch(() => {});
  early = { key: keyOf(permalink, timezone, password), promise, timezone, password };
}

/** The early request for exactly this dashboard view, once; null when there is none. */
export function takeEarlyDashboard(
  permalink: string,
  timezone: string,
  password: string | null,
): Promise<LoadedDashboard> | null {
  if (!early || early.key !== keyOf(permalink, timezone, password)) return null;
  const { promise } = early;
  early = null;
  return promise;
}

/**
 * The early request and what it asked with, left in place for the screen (the dashboard's code uses it to
 * ask for the widgets' data before its first render: early-widgets.ts); null when there is none.
 */
export function peekEarlyDashboard(): {
  promise: Promise<LoadedDashboard>;
  timezone: string;
  password: string | null;
} | null {
  return early;
}
