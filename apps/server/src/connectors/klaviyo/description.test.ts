import { shiftDay } from "@app/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { checkCalls } from "../../../test/fakes/described";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { klaviyoFake } from "./fake";
import { klaviyoConnector } from "./index";

/**
 * Klaviyo's requests and answers against its own OpenAPI document for the pinned revision
 * (./openapi.json, docs/connectors.md "Klaviyo"): every request the connector builds for every target,
 * dimension and metric its form offers is valid, and every answer the fake gives matches the described
 * response.
 */

const fakes = fakesForFile(afterAll, () => ({ klaviyo: klaviyoFake() }));
const TYPE = "klaviyo.report";
const description = () => {
  if (!klaviyoConnector.description) throw new Error("Klaviyo has no pinned description");
  return klaviyoConnector.description();
};

/** A source with an account of its own: the values reports allow 2 a minute per account. */
async function connect(client: TestClient) {
  const key = `pk_${Math.random().toString(16).slice(2)}${Math.random().toString(16).slice(2)}`;
  (await fakes.current()).parts.klaviyo.keys.add(key);
  const response = await client.api("POST", "/api/sources", { name: "klaviyo", account: "typed", token: key });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id as string;
}

const values = async (client: TestClient, id: string, kind: string, target: string) =>
  (
    (await client.api("GET", `/api/sources/${id}/${kind}?type=${TYPE}&target=${target}`)).json().data as {
      value: string;
    }[]
  ).map((option) => option.value);

describeEachDb(
  "Klaviyo against its OpenAPI description",
  (env) => {
    it("every request each target, dimension and metric builds is described, and so is every answer", async () => {
      const { client } = await buildOwner(env());
      const from = (await fakes.current()).calls.length;
      const range = {
        startDate: shiftDay(new Date().toISOString().slice(0, 10), -20),
        endDate: shiftDay(new Date().toISOString().slice(0, 10), -14),
        comparison: false,
      };
      for (const target of ["account", "campaign", "flow"]) {
        const picker = await connect(client);
        const metrics = await values(client, picker, "metrics", target);
        const dimensions = await values(client, picker, "dimensions", target);
        const conversion = target === "account" ? [] : await values(client, picker, "conversionMetrics", target);
        for (const dimension of [undefined, ...dimensions]) {
          const id = await connect(client);
          const inputs = {
            target,
            metrics,
            ...(dimension ? { dimension } : {}),
            ...(conversion[0] ? { conversionMetric: conversion[0] } : {}),
          };
          const response = await widgetData(client, [instance(id, TYPE, inputs)], range);
          expect(response.statusCode, response.body).toBe(200);
          expect(response.json().data.error ?? null).toBeNull();
        }
      }
      // Flows over more than a daily series' 60 days (by itself) read the values report.
      const long = await widgetData(
        client,
        [instance(await connect(client), TYPE, { target: "flow", metrics: ["delivered"], conversionMetric: "PlcOrd" })],
        { ...range, startDate: shiftDay(range.endDate, -89) },
      );
      expect(long.statusCode, long.body).toBe(200);
      const calls = (await fakes.current()).calls.slice(from).filter((call) => call.path.startsWith("/api/"));
      const paths = new Set(calls.map((call) => `${call.method} ${call.path}`));
      expect([...paths].sort()).toEqual([
        "GET /api/accounts/",
        "GET /api/campaigns/",
        "GET /api/flows/",
        "GET /api/metrics/",
        "POST /api/campaign-values-reports/",
        "POST /api/flow-series-reports/",
        "POST /api/flow-values-reports/",
        "POST /api/metric-aggregates/",
      ]);
      const { checked, problems } = checkCalls(await description(), calls);
      expect(problems).toEqual([]);
      expect(checked).toBe(calls.length);
    });
  },
  fakes.env,
);

describe("Klaviyo's description checks bite", () => {
  const url = (path: string) => new URL(`https://a.klaviyo.com${path}`);
  it("a wrong request is reported: unknown path, parameter, field, statistic", async () => {
    const checks = await description();
    expect(checks.checkRequest({ method: "GET", url: url("/api/campaign/") })).toEqual([
      "GET /api/campaign: no such path in the description",
    ]);
    expect(checks.checkRequest({ method: "DELETE", url: url("/api/metrics/") })).toEqual([
      "DELETE /api/metrics: the path has no such method",
    ]);
    const campaigns = url("/api/campaigns/");
    campaigns.searchParams.set("fields[campaign]", "name,title");
    campaigns.searchParams.set("page[size]", "10");
    expect(checks.checkRequest({ method: "GET", url: campaigns })).toEqual([
      expect.stringMatching(/^GET \/api\/campaigns: query parameter fields\[campaign\]: "title" is not one of \[/),
      "GET /api/campaigns: unknown query parameter page[size]",
      "GET /api/campaigns: required query parameter filter is missing",
    ]);
    const report = {
      data: {
        type: "campaign-values-report",
        attributes: {
          statistics: ["delivered", "open_rates"],
          timeframe: { start: "2026-01-01T00:00:00+00:00", end: "2026-01-02T00:00:00+00:00" },
          conversion_metric_id: "PlcOrd",
        },
      },
    };
    expect(checks.checkRequest({ method: "POST", url: url("/api/campaign-values-reports/"), body: report })).toEqual([
      expect.stringMatching(
        /^POST \/api\/campaign-values-reports: body\.data\.attributes\.statistics\[1\]: "open_rates" is not one of/,
      ),
    ]);
  });

  it("a wrong answer is reported: a missing required property, a wrong type, an undescribed status", async () => {
    const checks = await description();
    const request = { method: "GET", url: url("/api/metrics/") };
    const wrong = { data: [{ type: "metric", id: 7, attributes: {} }], links: {} };
    expect(checks.checkResponse(request, 200, wrong)).toEqual([
      'GET /api/metrics → 200: answer.data[0]: required property "links" is missing',
      "GET /api/metrics → 200: answer.data[0].id: number where the schema says string",
      'GET /api/metrics → 200: answer.links: required property "self" is missing',
    ]);
    expect(checks.checkResponse(request, 200, { links: {} })).toContain(
      'GET /api/metrics → 200: answer: required property "data" is missing',
    );
    expect(checks.checkResponse(request, 302, {})).toEqual(["GET /api/metrics → 302: no such status described"]);
  });
});
