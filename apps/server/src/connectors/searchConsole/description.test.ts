import { describe, expect, it } from "vitest";
import { connectedGoogleSource } from "../../../test/connector-scenarios/google";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { checkCalls, describedRequest } from "../google/description-check";
import { googleFake } from "../google/fake";
import { searchConsoleConnector } from ".";
import { description } from "./description";
import { searchConsoleFake } from "./fake";

/**
 * Search Console against Google's own discovery document (./discovery): every request the connector
 * builds for every option its form offers (each dimension, every metric, each filter and operator), and
 * every answer the fake gives to them.
 */

/** Google's sign-in and Search Console's API, its faults taken from Google's list (as the fake Google serves them). */
const parts = () => {
  const google = googleFake();
  const searchConsole = searchConsoleFake(google.state);
  searchConsole.state.failNext = google.state.failNext;
  return { google, searchConsole };
};
const setUp = connectedGoogleSource("searchConsole", parts);

const offered = (key: string, within?: string): string[] => {
  const params = searchConsoleConnector.widgetTypes[0]?.params ?? [];
  const parent = within ? params.find((param) => param.key === within)?.children : params;
  return (parent?.find((param) => param.key === key)?.options ?? []).map((option) => option.value);
};

/** A value each filter dimension's every operator takes (a country is its three-letter code). */
const FILTER_VALUES: Record<string, string> = {
  query: "shoes",
  page: "https://www.acme.com/blog",
  country: "usa",
  device: "mobile",
  searchAppearance: "AMP_BLUE_LINK",
};

const range = { startDate: "2026-10-01", endDate: "2026-10-07" };

describe("Search Console against Google's discovery document", () => {
  it("names where the pinned document came from", async () => {
    const loaded = await searchConsoleConnector.description?.();
    expect(loaded?.source.url).toContain("googleapis/google-api-nodejs-client/blob/");
    expect(loaded?.source.url).toContain("searchconsole-v1.json");
  });

  it("every request its form can make, and every answer the fake gives, is as Google describes", async () => {
    setUp.fakes.calls.length = 0;
    const sites = await setUp.client.api("GET", `/api/sources/${setUp.sourceId}/properties`);
    expect(sites.statusCode).toBe(200);
    const metrics = offered("metrics");
    // One site of each kind (a domain property, a URL prefix): the requests differ only in its path segment.
    const listed = (sites.json().data as { value: string }[]).map((site) => site.value);
    const kinds = [
      listed.find((site) => site.startsWith("sc-domain:")),
      listed.find((site) => site.startsWith("https:")),
    ];
    expect(kinds).not.toContain(undefined);
    for (const property of kinds) {
      const performance = (inputs: Record<string, unknown>) =>
        instance(setUp.sourceId, "searchConsole.performance", { property, metrics, ...inputs });
      for (const dimension of [null, ...offered("dimension")]) {
        await widgetData(setUp.client, [performance(dimension ? { dimension } : {})], range);
      }
      // A filter changes the request the same with or without a dimension: the totals' request carries it.
      for (const filterDimension of offered("filterDimension")) {
        for (const filterOperator of offered("filterOperator", "filterDimension")) {
          const filter = { filterDimension, filterOperator, filterExpression: FILTER_VALUES[filterDimension] };
          const answer = await widgetData(setUp.client, [performance(filter)], range);
          expect(answer.statusCode).toBe(200);
        }
      }
    }
    const report = await checkCalls(description, setUp.fakes.url, setUp.fakes.calls);
    expect(report.requests.length).toBeGreaterThan(20);
    expect(report.problems).toEqual([]);
    expect(report.failed).toEqual([]);
  });

  it("reports a request Google would refuse and an answer unlike Google's, saying what is wrong", () => {
    const query = (body: unknown) =>
      describedRequest("https://www.googleapis.com", {
        method: "POST",
        url: "/webmasters/v3/sites/sc-domain%3Aacme.com/searchAnalytics/query",
        path: "/webmasters/v3/sites/sc-domain:acme.com/searchAnalytics/query",
        query: {},
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect(
      description.checkRequest(query({ startDate: "2026-10-01", endDate: "2026-10-07", dimensions: ["keyword"] })),
    ).toEqual([
      'webmasters.searchanalytics.query: body.dimensions[0]: "keyword" is not one of DATE, QUERY, PAGE, COUNTRY, DEVICE, SEARCH_APPEARANCE, HOUR',
    ]);
    const request = query({ startDate: "2026-10-01", endDate: "2026-10-07" });
    expect(description.checkResponse(request, 200, { rows: [{ keys: ["shoes"], clicks: "3" }], total: 1 })).toEqual([
      'webmasters.searchanalytics.query: answer.rows[0].clicks: expected a number, got string "3"',
      "webmasters.searchanalytics.query: answer.total: unknown property (not in the schema)",
    ]);
  });
});
