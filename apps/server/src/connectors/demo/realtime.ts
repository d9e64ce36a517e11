import type { TTable } from "@app/core";
import { COUNTRY, PAGE } from "./dimensions";
import { apportion, hashString, siteOf, unit } from "./generate";

/**
 * The Demo connector's realtime data (docs/product.md §2 realtime view): active users and page views of
 * the last 30 minutes, as a live analytics tool reports them. Each minute's numbers are a pure function
 * of (source, site, minute), so they move from one minute to the next and never jump between two
 * requests in the same minute, and tests can compute them.
 */
export const REALTIME_TYPE_KEY = "demo.realtime";
export const REALTIME_WINDOW_MINUTES = 30;

export const REALTIME_METRICS = [
  { key: "activeUsers", label: "Active users" },
  { key: "views", label: "Views" },
] as const;
export const REALTIME_DIMENSIONS = [
  { key: "minute", label: "Minute" },
  { key: "country", label: COUNTRY.label },
  { key: "page", label: PAGE.label },
] as const;

const MINUTE_MS = 60_000;

/** The minute (ms since epoch, floored) a realtime answer is for: also part of its cache key. */
export function realtimeMinute(nowMs: number): number {
  return Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
}

function clockLabel(minuteMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone }).format(
    minuteMs,
  );
}

export function realtimeTable(query: {
  sourceId: string;
  property: string;
  dimension: string | null;
  metrics: readonly string[];
  /** The minute the window ends at (realtimeMinute). */
  minute: number;
  timezone: string;
}): TTable {
  const site = siteOf(query.sourceId, query.property);
  const seed = hashString(`${query.sourceId}|${query.property}|realtime`);
  // A site's daily sessions spread over the day, busier in its afternoon: users active per minute.
  const perMinute = (minuteMs: number) => {
    const n = Math.floor(minuteMs / MINUTE_MS);
    const hour = new Date(minuteMs).getUTCHours() + new Date(minuteMs).getUTCMinutes() / 60;
    const daily = 0.65 + 0.35 * Math.sin(((hour - 9) / 24) * 2 * Math.PI);
    const users = Math.round((site.size / 1440) * 3 * daily * (0.7 + 0.6 * unit(seed, n, 1)));
    const views = Math.round(users * (1.6 + 0.8 * unit(seed, n, 2)));
    return { users, views };
  };
  const minutes = Array.from(
    { length: REALTIME_WINDOW_MINUTES },
    (_, index) => query.minute - (REALTIME_WINDOW_MINUTES - 1 - index) * MINUTE_MS,
  );
  const series = minutes.map(perMinute);
  const viewsTotal = series.reduce((sum, m) => sum + m.views, 0);
  // People stay several minutes: the users active in the window are fewer than the minutes' sum.
  const usersTotal = Math.round(series.reduce((sum, m) => sum + m.users, 0) * 0.38);
  const pick = (values: { users: number; views: number }) =>
    query.metrics.map((key) => (key === "activeUsers" ? values.users : key === "views" ? values.views : null));
  const metrics = query.metrics.map((key) => ({
    key,
    label: REALTIME_METRICS.find((metric) => metric.key === key)?.label ?? key,
    format: "number" as const,
    currency: null,
  }));
  const totals = pick({ users: usersTotal, views: viewsTotal });
  if (query.dimension === "minute") {
    return {
      dimension: { key: "minute", label: "Minute", kind: "string" },
      metrics,
      rows: minutes.map((minuteMs, index) => ({
        dimension: clockLabel(minuteMs, query.timezone),
        values: pick(series[index]),
      })),
      totals,
    };
  }
  const split = query.dimension === "country" ? COUNTRY : query.dimension === "page" ? PAGE : null;
  if (!split?.values) return { dimension: null, metrics, rows: [], totals };
  const weights = split.values.map(
    (value, index) => value.weight * (0.8 + 0.4 * unit(seed, query.minute / MINUTE_MS, 10 + index)),
  );
  const users = apportion(usersTotal, weights);
  const views = apportion(viewsTotal, weights);
  return {
    dimension: { key: split.key, label: split.label, kind: "string" },
    metrics,
    rows: split.values
      .map((value, index) => ({ dimension: value.name, values: pick({ users: users[index], views: views[index] }) }))
      .sort((a, b) => (b.values[0] ?? 0) - (a.values[0] ?? 0)),
    totals,
  };
}
