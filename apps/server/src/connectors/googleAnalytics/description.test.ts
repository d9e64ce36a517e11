import { describe, expect, it } from "vitest";
import { connectedGoogleSource } from "../../../test/connector-scenarios/google";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { checkCalls, describedRequest } from "../google/description-check";
import { googleFake } from "../google/fake";
import { ga4WebProperties, googleAnalyticsConnector as googleAnalytics } from ".";
import { description } from "./description";

/**
 * Google Analytics against Google's own discovery documents (./discovery): every request the connector
 * builds for every option its forms offer, and every answer the fake gives to them.
 */

const parts = () => ({ google: googleFake() });
const setUp = connectedGoogleSource("googleAnalytics", parts);

const options = async (path: string): Promise<{ value: string }[]> => {
  const response = await setUp.client.api("GET", `/api/sources/${setUp.sourceId}/${path}`);
  expect(response.statusCode).toBe(200);
  return response.json().data;
};

const range = { startDate: "2026-10-01", endDate: "2026-10-07" };

describe("Google Analytics against Google's discovery documents", () => {
  it("names where the pinned documents came from", async () => {
    const loaded = await googleAnalytics.description?.();
    expect(loaded?.source.url).toContain("googleapis/google-api-nodejs-client/blob/");
    expect(loaded?.source.url).toContain("analyticsdata-v1beta.json");
    expect(loaded?.source.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("every request its forms can make, and every answer the fake gives, is as Google describes", async () => {
    setUp.fakes.calls.length = 0;
    const form = "type=googleAnalytics.ga4";
    for (const account of await options("properties")) {
      for (const property of await options(`profiles?${form}&property=${account.value}`)) {
        const at = `${form}&property=${account.value}&profile=${property.value}`;
        const metrics = (await options(`metrics?${at}`)).map((option) => option.value);
        const dimensions = (await options(`dimensions?${at}`)).map((option) => option.value);
        const ga4 = (inputs: Record<string, unknown>) =>
          instance(setUp.sourceId, "googleAnalytics.ga4", {
            property: account.value,
            profile: property.value,
            ...inputs,
          });
        // Every metric (in widgets of up to ten, as a form allows many), every dimension, both filters.
        for (let index = 0; index < metrics.length; index += 10) {
          await widgetData(setUp.client, [ga4({ metrics: metrics.slice(index, index + 10) })], range);
        }
        for (const dimension of dimensions) {
          await widgetData(setUp.client, [ga4({ dimension, metrics: [metrics[0]] })], range);
        }
        const filtered = dimensions.find((dimension) => dimension !== "date") ?? "date";
        for (const filter of [`${filtered}==Germany`, `${filtered}=@blog`]) {
          await widgetData(setUp.client, [ga4({ dimension: "date", metrics: [metrics[0]], filter })], range);
        }
      }
    }
    const realtime = googleAnalytics.widgetTypes.find((type) => type.type === "googleAnalytics.ga4realtime");
    const offered = (key: string) =>
      (realtime?.params.find((param) => param.key === key)?.options ?? []).map((option) => option.value);
    for (const dimension of [null, ...offered("dimension")]) {
      await widgetData(setUp.client, [
        instance(setUp.sourceId, "googleAnalytics.ga4realtime", {
          property: "1001",
          profile: "2001",
          metrics: offered("metrics"),
          ...(dimension ? { dimension } : {}),
        }),
      ]);
    }
    // The campaigns' domain matching reads each property's web streams (Admin API dataStreams).
    const loaded = await setUp.env.services.get("sources").load(setUp.companyId, setUp.sourceId);
    expect((await ga4WebProperties(loaded.handle)).length).toBeGreaterThan(0);
    const report = await checkCalls(description, setUp.fakes.url, setUp.fakes.calls);
    expect(report.requests.length).toBeGreaterThan(20);
    expect(report.problems).toEqual([]);
    // The fake refuses names its property's metadata lacks, as Google does: none was refused.
    expect(report.failed).toEqual([]);
    const asked = report.requests.map((request) => request.replace(/\?.*$/, "").replace(/\d+/g, "N"));
    expect(new Set(asked)).toEqual(
      new Set([
        "GET /vNbeta/accountSummaries",
        "GET /vNbeta/properties/N/dataStreams",
        "GET /vNbeta/properties/N/metadata",
        "POST /vNbeta/properties/N:runReport",
        "POST /vNbeta/properties/N:runRealtimeReport",
      ]),
    );
  });

  it("a name the property's metadata lacks is refused in Google's error body, as Google refuses it", async () => {
    setUp.fakes.calls.length = 0;
    const unknown = instance(setUp.sourceId, "googleAnalytics.ga4", {
      property: "1001",
      profile: "2001",
      metrics: ["sessionz"],
    });
    // Google's 400 INVALID_ARGUMENT is the form's 422.
    expect((await widgetData(setUp.client, [unknown], range)).statusCode).toBe(422);
    const report = await checkCalls(description, setUp.fakes.url, setUp.fakes.calls);
    expect(report.problems).toEqual([]);
    // The period and its comparison: each refused.
    expect(report.failed.length).toBeGreaterThan(0);
    for (const failure of report.failed)
      expect(failure).toMatch(/:runReport .* → 400 .*Field sessionz is not a valid metric/);
  });

  it("reports a request Google would refuse and an answer unlike Google's, saying what is wrong", () => {
    const origin = "https://analyticsdata.googleapis.com";
    const runReport = (body: unknown) => ({
      method: "POST",
      url: "/v1beta/properties/1001:runReport",
      path: "/v1beta/properties/1001:runReport",
      query: {},
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const wrongField = describedRequest(origin, runReport({ metrics: [{ name: "sessions" }], dimensionz: [] }));
    expect(description.checkRequest(wrongField)).toEqual([
      "analyticsdata.properties.runReport: body.dimensionz: unknown property (not in the schema)",
    ]);
    const wrongEnum = describedRequest(
      origin,
      runReport({ metrics: [{ name: "sessions" }], metricAggregations: ["AVERAGE"] }),
    );
    expect(description.checkRequest(wrongEnum)).toEqual([
      'analyticsdata.properties.runReport: body.metricAggregations[0]: "AVERAGE" is not one of METRIC_AGGREGATION_UNSPECIFIED, TOTAL, MINIMUM, MAXIMUM, COUNT',
    ]);
    const wrongPath = describedRequest(origin, { ...runReport({}), url: "/v1/properties/1001:runReport" });
    expect(description.checkRequest(wrongPath)[0]).toContain("POST /v1/properties/1001:runReport: no method of");
    const wrongParameter = describedRequest(origin, {
      ...runReport({}),
      method: "GET",
      url: "/v1beta/accountSummaries?pageSize=many&page=2",
      body: "",
    });
    expect(description.checkRequest(wrongParameter)).toEqual([
      'analyticsadmin.accountSummaries.list: parameter pageSize: "many" is not an integer',
      "analyticsadmin.accountSummaries.list: parameter page: not a parameter of analyticsadmin.accountSummaries.list",
    ]);
    const request = describedRequest(origin, runReport({ metrics: [{ name: "sessions" }] }));
    expect(
      description.checkResponse(request, 200, {
        rows: [{ metricValues: [{ value: 12 }] }],
        rowCount: "1",
        metricHeaders: [{ name: "sessions", type: "INTEGER" }],
      }),
    ).toEqual([
      "analyticsdata.properties.runReport: answer.rows[0].metricValues[0].value: expected a string, got number 12",
      'analyticsdata.properties.runReport: answer.rowCount: expected an integer, got string "1"',
      'analyticsdata.properties.runReport: answer.metricHeaders[0].type: "INTEGER" is not one of METRIC_TYPE_UNSPECIFIED, TYPE_INTEGER, TYPE_FLOAT, TYPE_SECONDS, TYPE_MILLISECONDS, TYPE_MINUTES, TYPE_HOURS, TYPE_STANDARD, TYPE_CURRENCY, TYPE_FEET, TYPE_MILES, TYPE_METERS, TYPE_KILOMETERS',
    ]);
    expect(description.checkResponse(request, 429, "Too many")).toEqual([
      'analyticsdata.properties.runReport: a failure\'s body is not Google\'s {"error": {…}}: "Too many"',
    ]);
  });
});
