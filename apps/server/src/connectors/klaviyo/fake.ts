import { shiftDay, todayInTimezone } from "@app/core";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeEntry, FakeFault, FakePart } from "../../../test/fakes/app";
import { answerFault, pathOf } from "../../../test/fakes/kit";

/**
 * Klaviyo's API as a part of the fakes app (./app.ts), answering in the shapes of:
 * - https://developers.klaviyo.com/en/reference/reporting_api_overview (`POST /api/campaign-values-reports/`
 *   and `/api/flow-values-reports/`: JSON:API `{data: {type, attributes: {statistics, timeframe,
 *   conversion_metric_id, filter}}}` → `{data: {attributes: {results: [{groupings, statistics}]}}}`),
 * - https://developers.klaviyo.com/en/reference/query_flow_series (`POST /api/flow-series-reports/`: the
 *   same body with `interval`; a daily series takes at most 60 days → `{data: {attributes: {results:
 *   [{groupings, statistics: {name: [one value a bucket]}}], date_times}}}`, a bucket a day from the
 *   timeframe's start),
 * - the reporting endpoints' rate limits as their reference pages give them (steady 2 a minute, 225 a day
 *   per account) and the 1-a-second burst: a request over any is a 429 `throttled` with Retry-After. A
 *   second report within a second of the account's previous one is refused (the connector sends the next
 *   only a second after the previous answer, so this tells pacing from chance, whatever the load).
 * - `GET /api/accounts/`, `GET /api/metrics/` (paged by `links.next`), `GET /api/campaigns/` (a channel
 *   filter is required), `GET /api/flows/`, `POST /api/metric-aggregates/`,
 * - https://developers.klaviyo.com/en/docs/rate_limits_and_error_handling: errors as
 *   `{errors: [{id, status, code, title, detail, source}]}`, 401 `not_authenticated` for a missing or
 *   wrong `Authorization: Klaviyo-API-Key …`, 400 without the `revision` header, 429 `throttled`.
 */

export interface FakeKlaviyo {
  keys: Set<string>;
  failNext: FakeFault[];
  /** Bodies of the report and aggregate requests, in order. */
  reports: { path: string; body: Record<string, unknown> }[];
  /** The account's `preferred_currency`. */
  currency: string;
  /** When each key's reporting requests were accepted (the rate limits count these). */
  reportTimes: Map<string, number[]>;
}

export const KLAVIYO_KEY = "pk_8c1f0e2d3b4a59687766554433221100ab";
export const KLAVIYO_METRICS = [
  { id: "RcvEml", name: "Received Email", integration: "Klaviyo" },
  { id: "OpnEml", name: "Opened Email", integration: "Klaviyo" },
  { id: "ClkEml", name: "Clicked Email", integration: "Klaviyo" },
  { id: "UnsEml", name: "Unsubscribed", integration: "Klaviyo" },
  { id: "PlcOrd", name: "Placed Order", integration: "Shopify" },
];
export const KLAVIYO_MESSAGES = [
  { id: "msg-a", campaign: "01HCAMPAIGNSPRING", flow: null, name: "Spring Sale" },
  { id: "msg-b", campaign: "01HCAMPAIGNSPRING", flow: null, name: "Spring Sale" },
  { id: "msg-c", campaign: "01HCAMPAIGNNEWS12", flow: null, name: "Newsletter #12" },
  { id: "msg-d", campaign: null, flow: "WelcomeFlw", name: "Welcome Series" },
  { id: "msg-e", campaign: null, flow: "CartFlw", name: "Abandoned Cart" },
];

const hash = (text: string) => [...text].reduce((value, char) => (value * 31 + char.charCodeAt(0)) % 100_003, 11);

/** One message's counts on one day (whole numbers, so sums are exact). */
export function fakeKlaviyoDay(message: string, day: string) {
  const h = hash(`${message}|${day}`);
  const recipients = 100 + (h % 50);
  const delivered = recipients - (h % 5);
  const opens_unique = Math.floor(delivered * 0.4) + (h % 7);
  const clicks_unique = Math.floor(opens_unique / 4);
  const conversion_uniques = h % 4;
  return {
    recipients,
    delivered,
    opens_unique,
    opens: opens_unique + (h % 9),
    clicks_unique,
    clicks: clicks_unique + (h % 3),
    conversions: conversion_uniques + (h % 2),
    conversion_uniques,
    conversion_value: conversion_uniques * 40,
    unsubscribes: h % 3,
    unsubscribe_uniques: h % 3,
  };
}
type Counts = ReturnType<typeof fakeKlaviyoDay>;
const RATES: Record<string, [keyof Counts, keyof Counts]> = {
  open_rate: ["opens_unique", "delivered"],
  click_rate: ["clicks_unique", "delivered"],
  conversion_rate: ["conversion_uniques", "delivered"],
  unsubscribe_rate: ["unsubscribe_uniques", "delivered"],
};

/** Account-wide events of one of Klaviyo's metrics on one day. */
export const fakeKlaviyoEvents = (metric: string, day: string) => 20 + (hash(`${metric}:${day}`) % 80);

/** The days of a zone from the instant `start` (inclusive) to `end` (exclusive), as metric-aggregates buckets them. */
function zoneDays(start: string, end: string, zone: string): string[] {
  const out: string[] = [];
  const last = todayInTimezone(zone, new Date(Date.parse(end) - 1));
  for (let day = todayInTimezone(zone, new Date(start)); day <= last; day = shiftDay(day, 1)) out.push(day);
  return out;
}

/** A zone's offset at an instant, as Klaviyo writes it in `dates` ("+13:00"). */
function offsetOf(zone: string, at: Date): string {
  const name = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(at)
    .find((part) => part.type === "timeZoneName")?.value;
  return name && name !== "GMT" ? name.slice(3) : "+00:00";
}

const isZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const days = (start: string, end: string) => {
  const out: string[] = [];
  for (let day = new Date(start); day < new Date(end); day.setUTCDate(day.getUTCDate() + 1)) {
    out.push(day.toISOString().slice(0, 10));
  }
  return out;
};

const jsonApiError = (
  reply: FastifyReply,
  status: number,
  code: string,
  title: string,
  detail: string,
  source: Record<string, string> = {},
) => reply.code(status).send({ errors: [{ id: `err-${Date.now()}`, status, code, title, detail, source, meta: {} }] });

export function klaviyoFake(): FakePart<FakeKlaviyo> {
  const state: FakeKlaviyo = {
    keys: new Set([KLAVIYO_KEY]),
    failNext: [],
    reports: [],
    currency: "USD",
    reportTimes: new Map(),
  };

  /** Klaviyo's reporting limits per account (its key): 1 a second, 2 a minute, 225 a day; the 429 past them. */
  function throttled(request: FastifyRequest, reply: FastifyReply) {
    const key = String(request.headers.authorization ?? "").slice(16);
    const now = Date.now();
    const times = (state.reportTimes.get(key) ?? []).filter((at) => at > now - 86_400_000);
    const last = times.at(-1);
    if (last !== undefined && now - last < 1_000) {
      reply.header("retry-after", "1");
      return jsonApiError(
        reply,
        429,
        "throttled",
        "Request was throttled.",
        "Request was throttled. Expected available in 1 second.",
      );
    }
    const minute = times.filter((at) => at > now - 60_000);
    const [oldest] = minute.length >= 2 ? minute : times.length >= 225 ? times : [];
    if (oldest !== undefined) {
      const seconds = Math.ceil((oldest + (minute.length >= 2 ? 60_000 : 86_400_000) - now) / 1000);
      reply.header("retry-after", String(seconds));
      return jsonApiError(
        reply,
        429,
        "throttled",
        "Request was throttled.",
        `Request was throttled. Expected available in ${seconds} seconds.`,
      );
    }
    state.reportTimes.set(key, [...times, now]);
    return null;
  }

  /** The checks every report body passes (type, statistics, conversion metric, timeframe), or the 400 sent. */
  function reportBody(request: FastifyRequest, reply: FastifyReply, type: string) {
    const body = request.body as { data?: { type?: string; attributes?: Record<string, unknown> } };
    const attributes = body.data?.attributes ?? {};
    const invalid = (detail: string, pointer: string) => ({
      error: jsonApiError(reply, 400, "invalid", "Invalid input.", detail, { pointer }),
    });
    if (body.data?.type !== type) return invalid(`The type must be ${type}.`, "/data/type");
    const statistics = attributes.statistics as string[] | undefined;
    const known = [...Object.keys(fakeKlaviyoDay("x", "2025-01-01")), ...Object.keys(RATES)];
    if (!Array.isArray(statistics) || statistics.length === 0) {
      return invalid("'statistics' is a required field.", "/data/attributes/statistics");
    }
    const unknown = statistics.find((name) => !known.includes(name));
    if (unknown) return invalid(`'${unknown}' is not a valid statistic.`, "/data/attributes/statistics");
    const metric = attributes.conversion_metric_id;
    if (typeof metric !== "string") {
      return invalid("'conversion_metric_id' is a required field.", "/data/attributes/conversion_metric_id");
    }
    if (!KLAVIYO_METRICS.some((entry) => entry.id === metric)) {
      return invalid(`Metric with id ${metric} does not exist.`, "/data/attributes/conversion_metric_id");
    }
    const frame = attributes.timeframe as { start?: string; end?: string; key?: string } | undefined;
    if (!frame?.start || !frame.end || Number.isNaN(Date.parse(frame.start)) || Number.isNaN(Date.parse(frame.end))) {
      return invalid("'timeframe' must have a key or a start and an end.", "/data/attributes/timeframe");
    }
    // A report covers at most a year (wording assumed: the reference states the limit only).
    if (Date.parse(frame.end) - Date.parse(frame.start) > 365 * 86_400_000) {
      return invalid("The timeframe cannot be longer than 1 year.", "/data/attributes/timeframe");
    }
    return { body, attributes, statistics, frame: { start: frame.start, end: frame.end }, invalid };
  }

  async function guarded(request: FastifyRequest, reply: FastifyReply) {
    const header = String(request.headers.authorization ?? "");
    const key = header.startsWith("Klaviyo-API-Key ") ? header.slice(16) : "";
    if (!state.keys.has(key)) {
      return jsonApiError(
        reply,
        401,
        "not_authenticated",
        "Authentication credentials were not provided.",
        "Missing or invalid private key.",
        { pointer: "/data/" },
      );
    }
    if (!/^\d{4}-\d{2}-\d{2}(\.pre)?$/.test(String(request.headers.revision ?? ""))) {
      return jsonApiError(reply, 400, "invalid", "Invalid input.", "A valid revision header is required.", {
        parameter: "revision",
      });
    }
    const fault = answerFault(state.failNext, reply, pathOf(request));
    if (fault) return fault;
  }

  return {
    state,
    register(app, shared) {
      app.get("/api/accounts/", { preHandler: guarded }, async () => ({
        data: [
          {
            type: "account",
            id: "XyZ123",
            attributes: {
              test_account: false,
              contact_information: {
                default_sender_name: "Acme",
                default_sender_email: "hello@acme.example",
                organization_name: "Acme Outfitters",
                street_address: {
                  address1: "1 Main Street",
                  city: "Berlin",
                  country: "DE",
                  zip: "10115",
                },
              },
              industry: "Apparel",
              timezone: "Europe/Berlin",
              preferred_currency: state.currency,
              public_api_key: "XyZ123",
              locale: "en-US",
            },
            links: { self: `${shared.origin()}/api/accounts/XyZ123/` },
          },
        ],
        links: { self: `${shared.origin()}/api/accounts/` },
      }));

      app.get("/api/metrics/", { preHandler: guarded }, async (request) => {
        // Two pages, so paging by `links.next` is exercised.
        const second = (request.query as Record<string, string>)["page[cursor]"] === "p2";
        const page = second ? KLAVIYO_METRICS.slice(3) : KLAVIYO_METRICS.slice(0, 3);
        return {
          data: page.map((metric) => ({
            type: "metric",
            id: metric.id,
            attributes: {
              name: metric.name,
              created: "2024-01-01T00:00:00+00:00",
              integration: { name: metric.integration },
            },
            links: { self: `${shared.origin()}/api/metrics/${metric.id}/` },
          })),
          // Klaviyo's CollectionLinks leave `next` out on the last page (its schema has no null there).
          links: {
            self: `${shared.origin()}/api/metrics/`,
            ...(second ? {} : { next: `${shared.origin()}/api/metrics/?page%5Bcursor%5D=p2` }),
          },
        };
      });

      const names = (kind: "campaign" | "flow") => {
        const seen = new Map<string, string>();
        for (const message of KLAVIYO_MESSAGES) {
          const id = message[kind];
          if (id) seen.set(id, message.name);
        }
        // Only the name: the connector asks for that attribute alone (`fields[campaign]=name`).
        return [...seen.entries()].map(([id, name]) => ({
          type: kind,
          id,
          attributes: { name },
          links: { self: `${shared.origin()}/api/${kind}s/${id}/` },
        }));
      };
      app.get("/api/campaigns/", { preHandler: guarded }, async (request, reply) => {
        const filter = (request.query as Record<string, string>).filter ?? "";
        if (!filter.includes("messages.channel")) {
          return jsonApiError(reply, 400, "invalid", "Invalid input.", "A channel filter is required.", {
            parameter: "filter",
          });
        }
        return { data: names("campaign"), links: { self: `${shared.origin()}/api/campaigns/` } };
      });
      app.get("/api/flows/", { preHandler: guarded }, async () => ({
        data: names("flow"),
        links: { self: `${shared.origin()}/api/flows/` },
      }));

      for (const target of ["campaign", "flow"] as const) {
        app.post(`/api/${target}-values-reports/`, { preHandler: guarded }, async (request, reply) => {
          state.reports.push({ path: `/api/${target}-values-reports/`, body: request.body as Record<string, unknown> });
          const checked = reportBody(request, reply, `${target}-values-report`);
          if ("error" in checked) return checked.error;
          const limited = throttled(request, reply);
          if (limited) return limited;
          const { statistics, frame } = checked;
          const range = days(frame.start, frame.end);
          const results = KLAVIYO_MESSAGES.filter((message) => message[target] !== null).map((message) => {
            const sums = {} as Record<keyof Counts, number>;
            for (const day of range) {
              for (const [name, value] of Object.entries(fakeKlaviyoDay(message.id, day))) {
                sums[name as keyof Counts] = (sums[name as keyof Counts] ?? 0) + value;
              }
            }
            const value = (name: string) => {
              const rate = RATES[name];
              if (!rate) return sums[name as keyof Counts] ?? 0;
              return sums[rate[1]] > 0 ? sums[rate[0]] / sums[rate[1]] : 0;
            };
            return {
              groupings: {
                send_channel: "email",
                [`${target}_id`]: message[target],
                [`${target}_message_id`]: message.id,
              },
              statistics: Object.fromEntries(statistics.map((name) => [name, value(name)])),
            };
          });
          return { data: { type: `${target}-values-report`, id: "rep-1", attributes: { results } } };
        });
      }

      app.post("/api/flow-series-reports/", { preHandler: guarded }, async (request, reply) => {
        state.reports.push({ path: "/api/flow-series-reports/", body: request.body as Record<string, unknown> });
        const checked = reportBody(request, reply, "flow-series-report");
        if ("error" in checked) return checked.error;
        const { attributes, statistics, frame, invalid } = checked;
        const interval = attributes.interval;
        if (interval !== "daily" && interval !== "hourly" && interval !== "weekly" && interval !== "monthly") {
          return invalid("'interval' must be one of daily, hourly, weekly, monthly.", "/data/attributes/interval")
            .error;
        }
        if (interval !== "daily") {
          return invalid("This fake answers daily series only.", "/data/attributes/interval").error;
        }
        if (Date.parse(frame.end) - Date.parse(frame.start) > 60 * 86_400_000) {
          return invalid("If daily is used, the timeframe cannot be longer than 60 days.", "/data/attributes/timeframe")
            .error;
        }
        const limited = throttled(request, reply);
        if (limited) return limited;
        // A bucket a day from the timeframe's start; its numbers are the fake's day as the values reports
        // count it (the UTC date of the bucket's start), so a series adds up to the values report exactly.
        const starts: number[] = [];
        for (let at = Date.parse(frame.start); at < Date.parse(frame.end); at += 86_400_000) starts.push(at);
        const results = KLAVIYO_MESSAGES.filter((message) => message.flow !== null).map((message) => {
          const byDay = starts.map((at) => fakeKlaviyoDay(message.id, new Date(at).toISOString().slice(0, 10)));
          const value = (counts: Counts, name: string) => {
            const rate = RATES[name];
            if (!rate) return counts[name as keyof Counts] ?? 0;
            return counts[rate[1]] > 0 ? counts[rate[0]] / counts[rate[1]] : 0;
          };
          return {
            groupings: { flow_id: message.flow, send_channel: "email", flow_message_id: message.id },
            statistics: Object.fromEntries(
              statistics.map((name) => [name, byDay.map((counts) => value(counts, name))]),
            ),
          };
        });
        return {
          data: {
            type: "flow-series-report",
            id: "series-1",
            attributes: {
              results,
              date_times: starts.map((at) => new Date(at).toISOString().replace(/\.\d{3}Z$/, "+00:00")),
            },
            relationships: {},
          },
        };
      });

      app.post("/api/metric-aggregates/", { preHandler: guarded }, async (request, reply) => {
        const body = request.body as { data?: { type?: string; attributes?: Record<string, unknown> } };
        state.reports.push({ path: "/api/metric-aggregates/", body: body as Record<string, unknown> });
        const attributes = body.data?.attributes ?? {};
        const metric = KLAVIYO_METRICS.find((entry) => entry.id === attributes.metric_id);
        if (body.data?.type !== "metric-aggregate" || !metric) {
          return jsonApiError(reply, 400, "invalid", "Invalid input.", "A valid metric_id is required.", {
            pointer: "/data/attributes/metric_id",
          });
        }
        const filter = (attributes.filter as string[] | undefined) ?? [];
        const bound = (op: string) =>
          /^[^(]+\(datetime,(.+)\)$/.exec(filter.find((entry) => entry.startsWith(op)) ?? "")?.[1];
        const start = bound("greater-or-equal");
        const end = bound("less-than");
        if (!start || !end) {
          return jsonApiError(
            reply,
            400,
            "invalid",
            "Invalid input.",
            "The filter must bound datetime on both sides.",
            {
              pointer: "/data/attributes/filter",
            },
          );
        }
        // Days are the zone's the request names (UTC without one); an unknown zone is refused.
        const zone = typeof attributes.timezone === "string" ? attributes.timezone : "UTC";
        if (!isZone(zone)) {
          return jsonApiError(reply, 400, "invalid", "Invalid input.", `'${zone}' is not a valid timezone.`, {
            pointer: "/data/attributes/timezone",
          });
        }
        const range = zoneDays(start, end, zone);
        return {
          data: {
            type: "metric-aggregate",
            id: "agg-1",
            attributes: {
              dates: range.map((day) => `${day}T00:00:00${offsetOf(zone, new Date(`${day}T12:00:00Z`))}`),
              data: [
                { dimensions: [], measurements: { count: range.map((day) => fakeKlaviyoEvents(metric.name, day)) } },
              ],
            },
            links: { self: `${shared.origin()}/api/metric-aggregates/agg-1/` },
          },
        };
      });
    },
    env: (origin) => ({ KLAVIYO_API_URL: origin }),
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "klaviyo",
  build: () => klaviyoFake(),
};

/** The login the sources form would send for this fake (the live check's test connects with it). */
export const fakeLogin = (_origin: string) => ({ account: "Acme", token: KLAVIYO_KEY });
