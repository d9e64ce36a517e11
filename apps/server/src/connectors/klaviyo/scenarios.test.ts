import { todayInTimezone } from "@app/core";
import { expect } from "vitest";
import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import type { TestClient } from "../../../test/harness";
import { fakeKlaviyoEvents, klaviyoFake } from "./fake";

const REPORTS = "/api/flow-series-reports/";
/**
 * Flow statistics without money (a money metric asks the account's currency too): one daily series
 * report each (the scenarios' ranges are shorter than the series' 60 days).
 */
const flows = (metric: string) => ({
  type: "klaviyo.report",
  inputs: { conversionMetric: "PlcOrd", metrics: [metric], target: "flow" },
});
/**
 * The account target: Klaviyo's own e-mail events, counted by metric-aggregates (60 a minute). The
 * unreadable-answer scenario asks three times on one source (stored, then stale, then cold), one more
 * than the values reports' 2 a minute allow, so it asks these instead.
 */
const account = (metric: string) => ({ type: "klaviyo.report", inputs: { metrics: [metric], target: "account" } });
const connect = (client: TestClient, token: string) =>
  client.api("POST", "/api/sources", { name: "klaviyo", account: "Acme", token });
/** Klaviyo's JSON:API errors (./classify.ts). */
const failing = (status: number, code: string, title: string, headers: Record<string, string> = {}) =>
  Array.from({ length: 3 }, () => ({
    status,
    headers,
    pathIncludes: REPORTS,
    body: { errors: [{ id: "fault", status, code, title, detail: "Try later." }] },
  }));

/**
 * Each source a key, so an account of its own: the values reports allow 2 a minute per account, and one
 * scenario stores a result and asks again, another asks two cold queries.
 */
const keys = new Map<string, string>();

connectorScenarios({
  title: "Klaviyo",
  fakes: () => ({ klaviyo: klaviyoFake() }),
  part: "klaviyo",
  connect: async (client, _env, fakes) => {
    const key = `pk_${Math.random().toString(16).slice(2)}${Math.random().toString(16).slice(2)}`;
    fakes.parts.klaviyo.keys.add(key);
    const response = await connect(client, key);
    expect(response.statusCode, response.body).toBe(200);
    const id: string = response.json().data.id;
    keys.set(id, key);
    return id;
  },
  queries: [
    flows("recipients"),
    flows("delivered"),
    account("received"),
    account("opened"),
    flows("clicks_unique"),
    flows("click_rate"),
    flows("unsubscribes"),
  ],
  upstream: (call) => call.path === REPORTS,
  notices: {
    limited: "Klaviyo [beta] is limiting requests",
    down: "Klaviyo [beta] is not answering",
    reconnect: "Klaviyo [beta] needs to be reconnected",
  },
  typedKey: {
    connect,
    wrong: "pk_wrong",
    errors: {
      token: [
        "Klaviyo refused these credentials: Authentication credentials were not provided. Missing or invalid private key. (not_authenticated)",
      ],
    },
  },
  revoke: async (fakes, _env, sourceId) => {
    const key = keys.get(sourceId) ?? "";
    fakes.parts.klaviyo.keys.delete(key);
    return () => {
      fakes.parts.klaviyo.keys.add(key);
    };
  },
  // Klaviyo's throttling comes with Retry-After in seconds; one second keeps the wait inside the request.
  limited: failing(429, "throttled", "Request was throttled.", { "retry-after": "1" }),
  down: failing(503, "service_unavailable", "Service unavailable."),
  malformed: [{ status: 200, pathIncludes: "/api/metric-aggregates/", body: '{"data": {"type": "metric-aggregate", ' }],
  settled: { query: flows("conversions"), range: { startDate: "2026-05-01", endDate: "2026-05-07" } },
  // Lists (metrics, campaigns, flows) page by `links.next`, but they name options; a report's numbers
  // come in one answer (reports have no paging, metric-aggregates one row a metric).
  // The account's counts by day: the filter's instants bound the viewer's days, and metric-aggregates
  // buckets them by days of the zone the request names (the viewer's).
  zone: {
    query: { type: "klaviyo.report", inputs: { dimension: "date", metrics: ["received"], target: "account" } },
    askedDays: (call, zone) => {
      if (call.path !== "/api/metric-aggregates/") return null;
      const attributes = JSON.parse(call.body).data.attributes as { filter: string[] };
      const bound = (op: string) =>
        /\(datetime,(.+)\)$/.exec(attributes.filter.find((entry) => entry.startsWith(op)) ?? "")?.[1] ?? "";
      return {
        first: todayInTimezone(zone, new Date(bound("greater-or-equal"))),
        last: todayInTimezone(zone, new Date(Date.parse(bound("less-than")) - 1)),
      };
    },
    // The fake counts a metric's events by the day of the zone the request names.
    dayValues: (day) => [fakeKlaviyoEvents("Received Email", day)],
  },
  // The account's preferred currency, set to euros for the scenario (the fake's account is in dollars).
  currency: {
    query: flows("conversion_value"),
    code: "EUR",
    arrange: (fakes) => {
      fakes.parts.klaviyo.currency = "EUR";
      return () => {
        fakes.parts.klaviyo.currency = "USD";
      };
    },
  },
});
