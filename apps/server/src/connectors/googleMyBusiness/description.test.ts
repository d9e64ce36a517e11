import { describe, expect, it } from "vitest";
import { connectedGoogleSource } from "../../../test/connector-scenarios/google";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { checkCalls, describedRequest } from "../google/description-check";
import { googleFake } from "../google/fake";
import { googleBusinessProfileConnector } from ".";
import { description } from "./description";
import { businessProfileFake } from "./fake";

/**
 * Google Business Profile against Google's own discovery documents (./discovery: Account Management,
 * Business Information, Performance): every request the connector builds for every option its form
 * offers (each account, each location, every metric, each dimension), and every answer the fake gives.
 */

const parts = () => {
  const google = googleFake();
  return { google, profile: businessProfileFake(google.state) };
};
const setUp = connectedGoogleSource("googleMyBusiness", parts);

const TYPE = "googleMyBusiness.performance";
const list = async (kind: string, form: Record<string, string>): Promise<string[]> => {
  const query = new URLSearchParams({ type: TYPE, ...form });
  const response = await setUp.client.api("GET", `/api/sources/${setUp.sourceId}/${kind}?${query}`);
  expect(response.statusCode).toBe(200);
  return response.json().data.map((option: { value: string }) => option.value);
};

/** A past range: the Performance API reports up to yesterday. */
const range = { startDate: "2026-10-01", endDate: "2026-10-07" };

describe("Google Business Profile against Google's discovery documents", () => {
  it("names where the pinned documents came from", async () => {
    const loaded = await googleBusinessProfileConnector.description?.();
    expect(loaded?.source.url).toContain("businessprofileperformance-v1.json");
    expect(loaded?.source.url).toContain("mybusinessaccountmanagement-v1.json");
  });

  it("every request its form can make, and every answer the fake gives, is as Google describes", async () => {
    setUp.fakes.calls.length = 0;
    const metrics = await list("metrics", {});
    const dimensions = await list("dimensions", {});
    for (const property of await list("properties", {})) {
      for (const profile of await list("profiles", { property })) {
        const performance = (inputs: Record<string, unknown>) =>
          instance(setUp.sourceId, TYPE, { property, profile, ...inputs });
        await widgetData(setUp.client, [performance({ metrics })], range);
        for (const dimension of dimensions) {
          await widgetData(setUp.client, [performance({ dimension, metrics: [metrics[0]] })], range);
        }
      }
    }
    const report = await checkCalls(description, setUp.fakes.url, setUp.fakes.calls);
    expect(report.problems).toEqual([]);
    expect(report.failed).toEqual([]);
    const asked = new Set(report.requests.map((request) => request.replace(/\?.*$/, "").replace(/\d+/g, "N")));
    expect(asked).toEqual(
      new Set([
        "GET /vN/accounts",
        "GET /vN/accounts/N/locations",
        "GET /vN/locations/N:fetchMultiDailyMetricsTimeSeries",
      ]),
    );
  });

  it("reports a request Google would refuse and an answer unlike Google's, saying what is wrong", () => {
    const get = (url: string) =>
      describedRequest("https://businessprofileperformance.googleapis.com", {
        method: "GET",
        url,
        path: url,
        query: {},
        headers: {},
        body: "",
      });
    const series = get(
      "/v1/locations/123:fetchMultiDailyMetricsTimeSeries?dailyMetrics=WEBSITE_VISITS&dailyRange.startDate.year=2026&dailyRange.start.day=1",
    );
    const problems = description.checkRequest(series);
    expect(problems).toHaveLength(2);
    // The pin's amendment (./discovery/amendments.json) adds the metric Google's reference lists since.
    expect(problems[0]).toMatch(
      /^businessprofileperformance\.locations\.fetchMultiDailyMetricsTimeSeries: parameter dailyMetrics: "WEBSITE_VISITS" is not one of DAILY_METRIC_UNKNOWN, .*CALL_CLICKS, .*MESSAGING_CLICKS$/,
    );
    expect(problems[1]).toBe(
      "businessprofileperformance.locations.fetchMultiDailyMetricsTimeSeries: parameter dailyRange.start.day: not a parameter of businessprofileperformance.locations.fetchMultiDailyMetricsTimeSeries",
    );
    // A field path by its proto names is the same parameter (Google's own example writes them so).
    expect(
      description.checkRequest(
        get(
          "/v1/locations/123:fetchMultiDailyMetricsTimeSeries?dailyMetrics=MESSAGING_CLICKS&daily_range.start_date.year=2026",
        ),
      ),
    ).toEqual([]);
    expect(
      description.checkResponse(series, 200, {
        multiDailyMetricTimeSeries: [
          {
            dailyMetricTimeSeries: [
              {
                dailyMetric: "CALL_CLICKS",
                timeSeries: { datedValues: [{ date: { year: 2026, month: 1, day: 1 }, value: 3 }] },
              },
            ],
          },
        ],
      }),
    ).toEqual([
      "businessprofileperformance.locations.fetchMultiDailyMetricsTimeSeries: answer.multiDailyMetricTimeSeries[0].dailyMetricTimeSeries[0].timeSeries.datedValues[0].value: expected a 64-bit integer as a string, got number 3",
    ]);
  });
});
