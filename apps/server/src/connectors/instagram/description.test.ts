import { describe, expect, it } from "vitest";
import { connectByConsent } from "../../../test/connector-scenarios/kit";
import { pagesDescriptionSetUp } from "../../../test/connector-scenarios/meta";
import { buildOwner } from "../../../test/factories";
import { checkCalls } from "../../../test/fakes/described";
import { describeEachDb } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { instagramConnector } from "./index";

/**
 * Instagram's requests and answers against Meta's business SDK objects for the pinned Graph version
 * (../meta/pages-graph-sdk.json, docs/connectors.md): the account and post pickers name Page, IGUser and
 * IGMedia fields the SDK lists, insights take its periods and metric types, a post's metrics are among
 * the SDK's `InsightsResult.Metric`, and every answer the fake gives carries only described fields (with
 * `total_value`, which Meta's Instagram reference documents and the SDK's InsightsResult does not list).
 */

const TYPE = "instagram.insights";
const { fakes, description, options, graphUrl: url, coveredCalls } = pagesDescriptionSetUp(instagramConnector, TYPE);

describeEachDb(
  "Instagram against Meta's business SDK objects",
  (env) => {
    it("every request each account, target, post, dimension and metric builds is described, and so is every answer", async () => {
      const { client } = await buildOwner(env());
      const from = (await fakes.current()).calls.length;
      const id = await connectByConsent(client, "instagram");
      const accounts = await options(client, id, "properties");
      expect(accounts.length).toBeGreaterThan(1);
      const range = { startDate: "2026-09-01", endDate: "2026-10-15", comparison: false };
      for (const property of accounts) {
        const profile = await options(client, id, "metrics", "&target=profile");
        const postMetrics = await options(client, id, "metrics", "&target=post");
        const posts = await options(client, id, "posts", `&property=${property}&target=post`);
        const widgets = [
          // Every profile metric as totals; reach by date (the one daily series).
          instance(id, TYPE, { property, target: "profile", metrics: profile }),
          instance(id, TYPE, { property, target: "profile", metrics: ["reach"], dimension: "date" }),
          ...posts.map((post) => instance(id, TYPE, { property, target: "post", post, metrics: postMetrics })),
        ];
        const response = await widgetData(client, widgets, range);
        expect(response.statusCode, response.body).toBe(200);
      }
      const { checks, calls, kinds } = await coveredCalls(from);
      expect(kinds).toEqual([
        "GET /v25.0/me/accounts",
        "GET /v25.0/me/businesses",
        "GET /v25.0/{id}/client_pages",
        "GET /v25.0/{id}/insights",
        "GET /v25.0/{id}/media",
        "GET /v25.0/{id}/owned_pages",
      ]);
      // Account insights (with a period) and post insights (lifetime, without one) were both asked.
      const insights = calls.filter((call) => call.path.endsWith("/insights"));
      expect(new Set(insights.map((call) => "period" in call.query))).toEqual(new Set([true, false]));
      const { checked, problems } = checkCalls(checks, calls);
      expect(problems).toEqual([]);
      expect(checked).toBe(calls.length);
    });
  },
  fakes.env,
);

describe("Instagram's description checks bite", () => {
  it("a wrong request is reported: a post metric the SDK does not list, a metric type, a media field", async () => {
    const checks = await description();
    expect(
      checks.checkRequest({ method: "GET", url: url("/v25.0/17900000000000001/insights", { metric: "reach,plays" }) }),
    ).toEqual(['GET /17900000000000001/insights: metric: "plays" is not one the SDK lists']);
    expect(
      checks.checkRequest({
        method: "GET",
        url: url("/v25.0/17841400000000001/insights", { metric: "reach", period: "day", metric_type: "sum" }),
      }),
    ).toEqual(['GET /17841400000000001/insights: metric_type: "sum" is not one of default, time_series, total_value']);
    expect(
      checks.checkRequest({
        method: "GET",
        url: url("/v25.0/17841400000000001/media", { fields: "id,caption,likes" }),
      }),
    ).toEqual(['GET /17841400000000001/media: fields: "likes" is not a field of IGMedia']);
  });

  it("a wrong answer is reported: a total that is not {value}, an undescribed media field", async () => {
    const checks = await description();
    const insights = {
      method: "GET",
      url: url("/v25.0/17841400000000001/insights", { metric: "likes", period: "day", metric_type: "total_value" }),
    };
    expect(
      checks.checkResponse(insights, 200, { data: [{ name: "likes", period: "day", total_value: 12 }], paging: {} }),
    ).toEqual(["GET /17841400000000001/insights → 200: answer.data[0].total_value: not {value: number}"]);
    const media = { method: "GET", url: url("/v25.0/17841400000000001/media", { fields: "id" }) };
    expect(checks.checkResponse(media, 200, { data: [{ id: "1", plays: 3 }] })).toEqual([
      "GET /17841400000000001/media → 200: answer.data[0].plays: not a field of IGMedia",
    ]);
  });
});
