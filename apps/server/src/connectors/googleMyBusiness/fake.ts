/**
 * Google Business Profile's three APIs as a part of the fakes app (./app.ts), in the shapes of:
 * - Account Management API, accounts.list:
 *   https://developers.google.com/my-business/reference/accountmanagement/rest/v1/accounts/list
 * - Business Information API, accounts.locations.list (readMask required):
 *   https://developers.google.com/my-business/reference/businessinformation/rest/v1/accounts.locations/list
 * - Performance API, locations.fetchMultiDailyMetricsTimeSeries and the DailyMetric enum [GBP-P]:
 *   https://developers.google.com/my-business/reference/performance/rest/v1/locations/fetchMultiDailyMetricsTimeSeries
 *   https://developers.google.com/my-business/reference/performance/rest/v1/DailyMetric
 *   (removals: https://developers.google.com/my-business/content/performance/change-log)
 * Bearer tokens are the fake Google's (`google.authorized`). Errors are google.rpc.Status bodies.
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeEntry, FakeFault, FakePart } from "../../../test/fakes/app";
import { answerFault } from "../../../test/fakes/kit";
import type { FakeGoogle } from "../google/fake";

export interface FakeBusinessProfile {
  /** Accounts per page. Google's maximum is 20; the fake pages by 2 so paging is exercised. */
  accountsPageSize: number;
  /** Locations whose performance answers 503 until removed (an outage). */
  down: Set<string>;
  /** Scripted faults for the Performance API (`pathIncludes` narrows them to one location). */
  failNext: FakeFault[];
  /** The raw query of every Performance API call, repeated parameters kept (FakeCall.query folds them). */
  performanceQueries: URLSearchParams[];
}

export const BUSINESS_ACCOUNTS = [
  { name: "accounts/7001", accountName: "Acme Bakeries", type: "LOCATION_GROUP", role: "OWNER" },
  { name: "accounts/7002", accountName: "Jane Doe", type: "PERSONAL", role: "PRIMARY_OWNER" },
  { name: "accounts/7003", accountName: "Client Three", type: "ORGANIZATION", role: "MANAGER" },
];

const LOCATIONS: Record<string, { name: string; title: string; storefrontAddress: Record<string, unknown> }[]> = {
  "7001": [
    {
      name: "locations/8101",
      title: "Acme Bakery Mitte",
      storefrontAddress: {
        regionCode: "DE",
        postalCode: "10115",
        locality: "Berlin",
        addressLines: ["Invalidenstr. 1"],
      },
    },
    {
      name: "locations/8102",
      title: "Acme Bakery Altona",
      storefrontAddress: {
        regionCode: "DE",
        postalCode: "22765",
        locality: "Hamburg",
        addressLines: ["Ottenser Hauptstr. 9"],
      },
    },
  ],
  "7002": [
    {
      name: "locations/8201",
      title: "Jane's Flowers",
      storefrontAddress: { regionCode: "GB", postalCode: "N1 9GU", locality: "London", addressLines: ["1 Upper St"] },
    },
  ],
  "7003": [],
};
const READABLE = new Set(Object.values(LOCATIONS).flatMap((list) => list.map((location) => location.name.slice(10))));

/** The DailyMetric values the API accepts today (BUSINESS_CONVERSATIONS was removed on 2026-01-31). */
const DAILY_METRICS = new Set([
  "BUSINESS_IMPRESSIONS_DESKTOP_MAPS",
  "BUSINESS_IMPRESSIONS_DESKTOP_SEARCH",
  "BUSINESS_IMPRESSIONS_MOBILE_MAPS",
  "BUSINESS_IMPRESSIONS_MOBILE_SEARCH",
  "BUSINESS_DIRECTION_REQUESTS",
  "CALL_CLICKS",
  "WEBSITE_CLICKS",
  "MESSAGING_CLICKS",
  "BUSINESS_BOOKINGS",
  "BUSINESS_FOOD_ORDERS",
  "BUSINESS_FOOD_MENU_CLICKS",
]);

/**
 * One daily metric of one location on one day (yyyy-mm-dd): fixed numbers a test can recompute. Calls
 * are zero on days divisible by 4 and bookings on most days (Google then leaves the value out).
 */
export function fakeDailyValue(metric: string, day: string, location: string): number {
  const n = Number(day.slice(8)) + (Number(location) % 5);
  const index = [...DAILY_METRICS].indexOf(metric);
  if (metric === "CALL_CLICKS" && Number(day.slice(8)) % 4 === 0) return 0;
  if (metric === "BUSINESS_BOOKINGS") return n % 7 === 0 ? 1 : 0;
  return index < 4 ? 40 * (index + 1) + n : 3 * (index - 3) + (n % 6);
}

const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

function daysFrom(start: string, end: string): string[] {
  const out: string[] = [];
  for (let at = Date.parse(`${start}T00:00:00Z`); at <= Date.parse(`${end}T00:00:00Z`); at += 86_400_000) {
    out.push(utcDay(at));
  }
  return out;
}

/** The day 18 months before `day` (the last of the month when it is shorter). */
function eighteenMonthsBefore(day: string): string {
  const [year = 0, month = 1, date = 1] = day.split("-").map(Number);
  const index = year * 12 + month - 1 - 18;
  const last = new Date(Date.UTC(Math.floor(index / 12), (index % 12) + 1, 0)).getUTCDate();
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}-${String(Math.min(date, last)).padStart(2, "0")}`;
}

/** A date part of dailyRange; Google takes the JSON name (startDate) and the proto name (start_date). */
function datePart(query: URLSearchParams, which: "start" | "end", part: "year" | "month" | "day"): number | null {
  for (const prefix of ["dailyRange", "daily_range"]) {
    for (const name of [`${which}Date`, `${which}_date`]) {
      const value = query.get(`${prefix}.${name}.${part}`);
      if (value !== null) return /^\d+$/.test(value) ? Number(value) : Number.NaN;
    }
  }
  return null;
}

export function businessProfileFake(google: FakeGoogle): FakePart<FakeBusinessProfile> {
  const state: FakeBusinessProfile = { accountsPageSize: 2, down: new Set(), failNext: [], performanceQueries: [] };
  const googleError = (reply: FastifyReply, code: number, status: string, message: string, details?: unknown[]) =>
    reply.code(code).send({ error: { code, message, status, ...(details && { details }) } });
  const invalid = (reply: FastifyReply, field: string, description: string) =>
    googleError(reply, 400, "INVALID_ARGUMENT", "Request contains an invalid argument.", [
      {
        "@type": "type.googleapis.com/google.rpc.BadRequest",
        fieldViolations: [{ field, description }],
      },
    ]);
  const guarded = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!google.authorized(request.headers.authorization)) {
      return googleError(
        reply,
        401,
        "UNAUTHENTICATED",
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
      );
    }
  };
  const queryOf = (request: FastifyRequest) => new URL(request.url, "http://fake").searchParams;
  /** Page tokens are opaque to callers; here they carry the offset. */
  const page = <T>(items: T[], query: URLSearchParams, max: number) => {
    const size = Math.min(Math.max(Number(query.get("pageSize") ?? max) || max, 1), max);
    const token = query.get("pageToken");
    const offset = token ? Number(/^offset-(\d+)$/.exec(token)?.[1] ?? Number.NaN) : 0;
    if (Number.isNaN(offset)) return null;
    const slice = items.slice(offset, offset + size);
    return { slice, nextPageToken: offset + size < items.length ? `offset-${offset + size}` : undefined };
  };

  return {
    state,
    env: (origin) => ({
      GBP_ACCOUNT_MANAGEMENT_API_URL: origin,
      GBP_BUSINESS_INFORMATION_API_URL: origin,
      GBP_PERFORMANCE_API_URL: origin,
    }),
    register(app) {
      app.get("/v1/accounts", { preHandler: guarded }, async (request, reply) => {
        const paged = page(BUSINESS_ACCOUNTS, queryOf(request), Math.min(state.accountsPageSize, 20));
        if (!paged) return invalid(reply, "page_token", "Invalid page token.");
        return { accounts: paged.slice, ...(paged.nextPageToken && { nextPageToken: paged.nextPageToken }) };
      });

      app.get("/v1/accounts/:account/locations", { preHandler: guarded }, async (request, reply) => {
        const query = queryOf(request);
        const readMask = query.get("readMask") ?? query.get("read_mask");
        if (!readMask) return invalid(reply, "read_mask", "Field is required");
        const fields = readMask.split(",").map((field) => field.trim());
        const known = ["name", "title", "storefrontAddress", "storeCode", "websiteUri", "phoneNumbers", "categories"];
        const unknown = fields.find((field) => !known.includes(field));
        if (unknown) return invalid(reply, "read_mask", `Invalid field mask path: ${unknown}`);
        const account = (request.params as { account: string }).account;
        const locations = LOCATIONS[account];
        if (!locations) {
          return googleError(reply, 403, "PERMISSION_DENIED", "The caller does not have permission");
        }
        const paged = page(locations, query, 100);
        if (!paged) return invalid(reply, "page_token", "Invalid page token.");
        // Only the fields the mask names come back, as Google does.
        const masked = paged.slice.map((location) =>
          Object.fromEntries(Object.entries(location).filter(([key]) => fields.includes(key))),
        );
        return { locations: masked, ...(paged.nextPageToken && { nextPageToken: paged.nextPageToken }) };
      });

      // The method is a colon verb on the location (`locations/8101:fetchMultiDailyMetricsTimeSeries`).
      app.get("/v1/locations/*", { preHandler: guarded }, async (request, reply) => {
        const path = decodeURIComponent(new URL(request.url, "http://fake").pathname);
        const match = /^\/v1\/locations\/([^/:]+):fetchMultiDailyMetricsTimeSeries$/.exec(path);
        if (!match) return googleError(reply, 404, "NOT_FOUND", "Requested entity was not found.");
        const location = match[1] ?? "";
        const query = queryOf(request);
        state.performanceQueries.push(query);
        const fault = answerFault(state.failNext, reply, path);
        if (fault) return fault;
        if (state.down.has(location)) {
          return googleError(reply, 503, "UNAVAILABLE", "The service is currently unavailable.");
        }
        const metrics = query.getAll("dailyMetrics");
        if (metrics.length === 0) return invalid(reply, "daily_metrics", "Field is required");
        const badMetric = metrics.findIndex((metric) => !DAILY_METRICS.has(metric));
        if (badMetric >= 0) {
          return googleError(
            reply,
            400,
            "INVALID_ARGUMENT",
            `Invalid value at 'daily_metrics[${badMetric}]' (type.googleapis.com/google.businessprofile.performance.v1.DailyMetric), "${metrics[badMetric]}"`,
          );
        }
        const parts = (which: "start" | "end") =>
          (["year", "month", "day"] as const).map((part) => datePart(query, which, part));
        const [start, end] = (["start", "end"] as const).map((which) => {
          const [year, month, day] = parts(which);
          if (!year || !month || !day) return null;
          const text = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
          return utcDay(Date.parse(`${text}T00:00:00Z`)) === text ? text : null;
        });
        if (!start || !end) return invalid(reply, "daily_range", "A complete start and end date is required.");
        if (start > end) return invalid(reply, "daily_range", "The start date must not be after the end date.");
        const today = utcDay(Date.now());
        if (end > today) return invalid(reply, "daily_range.end_date", "End date cannot be in the future.");
        if (start < eighteenMonthsBefore(today)) {
          return invalid(reply, "daily_range.start_date", "Start date cannot be more than 18 months in the past.");
        }
        if (!READABLE.has(location)) {
          return googleError(reply, 403, "PERMISSION_DENIED", "The caller does not have permission");
        }
        const days = daysFrom(start, end);
        return {
          multiDailyMetricTimeSeries: [
            {
              dailyMetricTimeSeries: metrics.map((metric) => ({
                dailyMetric: metric,
                timeSeries: {
                  datedValues: days.map((day) => {
                    const value = fakeDailyValue(metric, day, location);
                    const date = {
                      year: Number(day.slice(0, 4)),
                      month: Number(day.slice(5, 7)),
                      day: Number(day.slice(8)),
                    };
                    // int64 travels as a string; a zero day has no value at all.
                    return value === 0 ? { date } : { date, value: String(value) };
                  }),
                },
              })),
            },
          ],
        };
      });
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "profile",
  after: "google",
  build: (parts) => businessProfileFake(parts.google.state as FakeGoogle),
};
