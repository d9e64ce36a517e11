import type { TOption, TTable } from "@app/core";
import { maxDay, minDay, todayInTimezone } from "@app/core";
import { z } from "zod";
import type { ProvidersConfig } from "../../infra/config";
import { AppError } from "../../infra/errors";
import { classifyGoogle } from "../google/classify";
import { googleSettings } from "../google/settings";
import { googleAuthorization, googleOAuthAdapter, missingGoogleConfig } from "../google/shared";
import { createProviderClient, type ProviderClient, type QuotaBucket } from "../http/client";
import { perRuntime } from "../http/per-runtime";
import { daysOf } from "../kit/inputs";
import { followCursor } from "../kit/paging";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector, SourceHandle } from "../types";
import { logo } from "./logo";

/**
 * Google Business Profile, catalogue key `googleMyBusiness` (docs/connectors.md): accounts from the
 * Account Management API, an account's locations from the Business Information API, daily numbers
 * from the Performance API's `locations/{id}:fetchMultiDailyMetricsTimeSeries`. Inputs as for GA4:
 * property (the account), profile (the location), metrics. Every metric is a daily count, so totals
 * and surfaces are sums of days.
 */

const ZAccounts = z.object({
  accounts: z
    .array(z.object({ name: z.string(), accountName: z.string().default(""), type: z.string().default("") }))
    .default([]),
  nextPageToken: z.string().optional(),
});

const ZLocations = z.object({
  locations: z
    .array(
      z.object({
        name: z.string(),
        title: z.string().default(""),
        storefrontAddress: z.object({ locality: z.string().optional() }).optional(),
      }),
    )
    .default([]),
  nextPageToken: z.string().optional(),
});

const ZDatedValue = z.object({
  date: z.object({ year: z.number(), month: z.number(), day: z.number() }),
  // int64 as a string; Google leaves it out on days with nothing to count.
  value: z.string().optional(),
});
const ZTimeSeries = z.object({
  multiDailyMetricTimeSeries: z
    .array(
      z.object({
        dailyMetricTimeSeries: z
          .array(
            z.object({
              dailyMetric: z.string(),
              timeSeries: z.object({ datedValues: z.array(ZDatedValue).default([]) }).optional(),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
});

/**
 * Google does not publish how long it revises Business Profile numbers, only that they arrive several
 * days late. A week covers that with room to spare.
 */
export const BUSINESS_PROFILE_SETTLING_DAYS = 7;
/** Numbers arrive several days late: the last three days are not judged yet. (insights and widget alerts, `lagDays`) */
export const BUSINESS_PROFILE_LAG_DAYS = 3;

/** The Performance API answers for at most 18 months back (and never for days after today). */
export const BUSINESS_PROFILE_HISTORY_MONTHS = 18;

/** Each Business Profile API allows 300 queries a minute per Cloud project, ours for every customer. */
const PROJECT_QUOTA: QuotaBucket[] = [{ key: "project", max: 300, windowMs: 60_000, kind: "rate" }];

const SURFACES = [
  { key: "BUSINESS_IMPRESSIONS_DESKTOP_MAPS", label: "Google Maps, desktop" },
  { key: "BUSINESS_IMPRESSIONS_DESKTOP_SEARCH", label: "Google Search, desktop" },
  { key: "BUSINESS_IMPRESSIONS_MOBILE_MAPS", label: "Google Maps, mobile" },
  { key: "BUSINESS_IMPRESSIONS_MOBILE_SEARCH", label: "Google Search, mobile" },
] as const;

/**
 * What a widget may show, each the sum of the Google daily metrics it names. Left out on purpose:
 * BUSINESS_CONVERSATIONS (removed 2026-01-31 with Business Messages) and BUSINESS_FOOD_ORDERS
 * (deprecated 2025-10-22, removed 2027-04-22, no replacement): a widget built on them would break.
 */
const METRICS: ReadonlyArray<{ key: string; label: string; daily: readonly string[] }> = [
  { key: "impressions", label: "Impressions", daily: SURFACES.map((surface) => surface.key) },
  ...SURFACES.map((surface) => ({ key: surface.key, label: `Impressions: ${surface.label}`, daily: [surface.key] })),
  { key: "CALL_CLICKS", label: "Calls", daily: ["CALL_CLICKS"] },
  { key: "WEBSITE_CLICKS", label: "Website clicks", daily: ["WEBSITE_CLICKS"] },
  { key: "BUSINESS_DIRECTION_REQUESTS", label: "Direction requests", daily: ["BUSINESS_DIRECTION_REQUESTS"] },
  { key: "MESSAGING_CLICKS", label: "Messaging clicks", daily: ["MESSAGING_CLICKS"] },
  { key: "BUSINESS_BOOKINGS", label: "Bookings", daily: ["BUSINESS_BOOKINGS"] },
  { key: "BUSINESS_FOOD_MENU_CLICKS", label: "Menu clicks", daily: ["BUSINESS_FOOD_MENU_CLICKS"] },
];
type Metric = (typeof METRICS)[number];

/** Impressions are the only numbers Google splits by where they were seen. */
const IMPRESSION_METRICS = new Set(["impressions", ...SURFACES.map((surface) => surface.key)]);

const DIMENSIONS = [
  { key: "date", label: "Date" },
  { key: "surface", label: "Surface" },
];

const WIDGET_TYPE = widgetTypeConfig({
  type: "googleMyBusiness.performance",
  label: "Business Profile performance",
  connector: "googleMyBusiness",
  params: [
    { key: "property", label: "Account", kind: "select", required: true, remote: "properties" },
    { key: "profile", label: "Location", kind: "select", required: true, remote: "profiles" },
    dimensionParam(DIMENSIONS),
    metricsParam(METRICS),
  ],
});

const clients = perRuntime((runtime) => {
  const google = runtime.providers.google;
  const common = { classify: classifyGoogle, counters: runtime.counters, concurrency: 5 };
  return {
    accounts: createProviderClient({ provider: "gbp-accounts", baseUrl: google.businessAccountsUrl, ...common }),
    information: createProviderClient({
      provider: "gbp-information",
      baseUrl: google.businessInformationUrl,
      ...common,
    }),
    performance: createProviderClient({
      provider: "gbp-performance",
      baseUrl: google.businessPerformanceUrl,
      ...common,
    }),
  };
});

const idOf = (name: string) => name.split("/").pop() ?? name;

const requireText = (value: unknown, field: string, message: string): string => {
  if (typeof value === "string" && value !== "") return value;
  throw AppError.validation({ [field]: [message] });
};

/** Accounts come 20 a page at most; 20 pages (400 accounts on one login) is more than an agency has. */
async function accountOptions(source: SourceHandle, api: ProviderClient, headers: Record<string, string>) {
  const accounts = await followCursor(
    20,
    (pageToken) =>
      api.request({
        path: "/v1/accounts",
        query: { pageSize: 20, pageToken },
        headers,
        schema: ZAccounts,
        limitKey: `source:${source.id}`,
        quotas: PROJECT_QUOTA,
      }),
    (answer) => answer.nextPageToken,
  ).then((pages) => pages.flatMap((answer) => answer.accounts));
  return accounts.map((account) => ({ value: idOf(account.name), label: account.accountName || idOf(account.name) }));
}

/** Locations come 100 a page at most; `readMask` is required (Google answers 400 without it). */
async function locationOptions(
  source: SourceHandle,
  api: ProviderClient,
  headers: Record<string, string>,
  account: string,
) {
  const locations = await followCursor(
    10,
    (pageToken) =>
      api.request({
        path: `/v1/accounts/${encodeURIComponent(account)}/locations`,
        query: { readMask: "name,title,storefrontAddress", pageSize: 100, pageToken },
        headers,
        schema: ZLocations,
        limitKey: `source:${source.id}`,
        quotas: PROJECT_QUOTA,
      }),
    (answer) => answer.nextPageToken,
  ).then((pages) => pages.flatMap((answer) => answer.locations));
  return locations.map((location) => {
    const title = location.title || idOf(location.name);
    const locality = location.storefrontAddress?.locality;
    return { value: idOf(location.name), label: locality ? `${title} (${locality})` : title };
  });
}

/** The day `months` calendar months before `day`, on the month's last day when it has fewer days. */
export function monthsBefore(day: string, months: number): string {
  const [year = 0, month = 1, date = 1] = day.split("-").map(Number);
  const index = year * 12 + (month - 1) - months;
  const toYear = Math.floor(index / 12);
  const toMonth = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(toYear, toMonth, 0)).getUTCDate();
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${toYear}-${pad(toMonth)}-${pad(Math.min(date, lastDay))}`;
}

/**
 * The days Google will report on now. Google judges "future" and "18 months back" by its own clock
 * and the location's day, which we do not know: today in the westernmost zone is never in the future
 * anywhere, and 18 months before today in the easternmost zone is never too far back anywhere.
 */
export function reportableDays(now: Date = new Date()): { earliest: string; latest: string } {
  return {
    earliest: monthsBefore(todayInTimezone("Etc/GMT-14", now), BUSINESS_PROFILE_HISTORY_MONTHS),
    latest: todayInTimezone("Etc/GMT+12", now),
  };
}

const dayOf = (date: { year: number; month: number; day: number }) =>
  `${date.year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`;

/** Sum of the non-null values; null when there are none (nothing Google could report). */
const sum = (values: ReadonlyArray<number | null>): number | null =>
  values.some((value) => value !== null) ? values.reduce<number>((total, value) => total + (value ?? 0), 0) : null;

export const googleBusinessProfileConnector: Connector = {
  key: "googleMyBusiness",
  logo,
  settings: googleSettings,
  displayName: "Google My Business",
  order: 4,
  authKind: "oauth2",
  available: true,
  note: null,
  oauth: googleOAuthAdapter,
  settlingDays: BUSINESS_PROFILE_SETTLING_DAYS,
  lagDays: BUSINESS_PROFILE_LAG_DAYS,
  widgetTypes: [WIDGET_TYPE],
  // Google's own description of the API, pinned in ./discovery (docs/connectors.md), for its tests and the live check.
  description: async () => (await import("./description")).description,
  missingConfig: (providers: ProvidersConfig) => missingGoogleConfig(providers),

  async options(kind, { source, form }): Promise<TOption[]> {
    if (kind === "metrics") return toOptions(METRICS);
    if (kind === "dimensions") return toOptions(DIMENSIONS);
    const api = clients(source.runtime);
    if (kind === "properties") return accountOptions(source, api.accounts, await googleAuthorization(source));
    if (kind === "profiles") {
      const account = requireText(form.property, "property", "Choose an account first.");
      return locationOptions(source, api.information, await googleAuthorization(source), account);
    }
    throw AppError.notFound("Unknown option list.");
  },

  async query({ source, inputs, range }): Promise<TTable> {
    const location = requireText(inputs.profile, "profile", "The profile field is required.");
    const metrics = (Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : [])
      .map((key) => METRICS.find((metric) => metric.key === key))
      .filter((metric): metric is Metric => metric !== undefined);
    if (metrics.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
    const dimension = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    const declared = DIMENSIONS.find((entry) => entry.key === dimension);
    if (dimension && !declared) throw AppError.validation({ dimension: ["The selected dimension is invalid."] });
    if (dimension === "surface" && metrics.some((metric) => !IMPRESSION_METRICS.has(metric.key))) {
      throw AppError.validation({
        metrics: ["Only impressions can be split by surface. Choose the date or no dimension for the other metrics."],
      });
    }

    // Days Google does not report (older than 18 months, after today) are not asked for and show no
    // value, not zero: nothing was measured. Not a 422: the comparison period of a range near the
    // 18-month edge falls outside, and refusing it would cost the widget its current numbers too.
    const { earliest, latest } = reportableDays();
    const start = maxDay(range.startDate, earliest);
    const end = minDay(range.endDate, latest);
    const counts = new Map<string, Map<string, number>>();
    if (start <= end) {
      const daily = [...new Set(metrics.flatMap((metric) => metric.daily))];
      const [startYear, startMonth, startDay] = start.split("-").map(Number);
      const [endYear, endMonth, endDay] = end.split("-").map(Number);
      const answer = await clients(source.runtime).performance.request({
        path: `/v1/locations/${encodeURIComponent(location)}:fetchMultiDailyMetricsTimeSeries`,
        query: {
          dailyMetrics: daily,
          "dailyRange.start_date.year": startYear,
          "dailyRange.start_date.month": startMonth,
          "dailyRange.start_date.day": startDay,
          "dailyRange.end_date.year": endYear,
          "dailyRange.end_date.month": endMonth,
          "dailyRange.end_date.day": endDay,
        },
        headers: await googleAuthorization(source),
        schema: ZTimeSeries,
        limitKey: `location:${location}`,
        quotas: PROJECT_QUOTA,
      });
      for (const group of answer.multiDailyMetricTimeSeries) {
        for (const series of group.dailyMetricTimeSeries) {
          const byDay = counts.get(series.dailyMetric) ?? new Map<string, number>();
          for (const point of series.timeSeries?.datedValues ?? []) {
            const value = Number(point.value ?? "0");
            byDay.set(dayOf(point.date), Number.isFinite(value) ? value : 0);
          }
          counts.set(series.dailyMetric, byDay);
        }
      }
    }
    const reported = (day: string) => day >= start && day <= end;
    /** One Google daily metric on one day: 0 when Google left the day out, null outside what it reports. */
    const count = (daily: string, day: string): number | null =>
      reported(day) ? (counts.get(daily)?.get(day) ?? 0) : null;
    const days = daysOf(range.startDate, range.endDate);
    const onDay = (metric: Metric, day: string) => sum(metric.daily.map((daily) => count(daily, day)));

    const rows: TTable["rows"] =
      dimension === "date"
        ? days.map((day) => ({ dimension: day, values: metrics.map((metric) => onDay(metric, day)) }))
        : dimension === "surface"
          ? SURFACES.map((surface) => ({
              dimension: surface.label,
              values: metrics.map((metric) =>
                metric.daily.includes(surface.key) ? sum(days.map((day) => count(surface.key, day))) : null,
              ),
            }))
          : [];
    // Every metric is a daily count: the range's total is the sum of its days.
    const totals = metrics.map((metric) => sum(days.map((day) => onDay(metric, day))));
    return {
      dimension: declared
        ? { key: declared.key, label: declared.label, kind: declared.key === "date" ? "date" : "string" }
        : null,
      metrics: metrics.map((metric) => ({ key: metric.key, label: metric.label, format: "number" as const })),
      rows,
      totals,
    };
  },
};
