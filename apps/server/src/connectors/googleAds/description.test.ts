import { describe, expect, it } from "vitest";
import { connectedGoogleSource } from "../../../test/connector-scenarios/google";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { checkCalls, describedRequest } from "../google/description-check";
import { googleFake } from "../google/fake";
import { googleAdsConnector } from ".";
import { checkGaql, description } from "./description";
import { googleAdsFake } from "./fake";
import { REPORT_TYPES } from "./report";

/**
 * Google Ads against Google's own field metadata for the pinned version (./description): every GAQL query
 * the connector builds for every option its form offers selects only fields selectable FROM its resource,
 * and every answer the fake gives holds only what was selected.
 */

const parts = () => {
  const google = googleFake();
  return { google, ads: googleAdsFake(google.state) };
};
const setUp = connectedGoogleSource("googleAds", parts);

const list = async (kind: string, form: Record<string, string>): Promise<string[]> => {
  const query = new URLSearchParams({ type: "googleAds.report", ...form });
  const response = await setUp.client.api("GET", `/api/sources/${setUp.sourceId}/${kind}?${query}`);
  expect(response.statusCode).toBe(200);
  return response.json().data.map((option: { value: string }) => option.value);
};

const range = { startDate: "2026-10-01", endDate: "2026-10-07" };

describe("Google Ads against Google's field metadata", () => {
  it("names where the pinned fields came from, for the version the connector asks", async () => {
    const loaded = await googleAdsConnector.description?.();
    expect(loaded?.source.url).toContain("src/protos/autogen/fields.ts");
    expect(loaded?.source.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(setUp.fakes.env.GOOGLE_ADS_API_VERSION).toBe("v24");
  });

  it("every query its form can build, and every answer the fake gives, is as Google describes", async () => {
    setUp.fakes.calls.length = 0;
    // A report without rows carries no currency: the connector asks the account's (FROM customer), first,
    // before a report's rows teach it the currency.
    for (const property of await list("properties", {})) {
      await widgetData(setUp.client, [
        instance(setUp.sourceId, "googleAds.report", {
          property,
          reportType: "campaign",
          campaign: "999",
          metrics: ["cost"],
        }),
      ]);
    }
    const metrics = await list("metrics", {});
    for (const property of await list("properties", {})) {
      for (const reportType of Object.keys(REPORT_TYPES)) {
        const report = (inputs: Record<string, unknown>) =>
          instance(setUp.sourceId, "googleAds.report", { property, reportType, ...inputs });
        // Every metric together, every dimension the report offers, each narrowing the form allows.
        await widgetData(setUp.client, [report({ metrics })], range);
        for (const dimension of await list("dimensions", { property, reportType })) {
          await widgetData(setUp.client, [report({ dimension, metrics: [metrics[0]] })], range);
        }
        for (const campaign of await list("campaigns", { property, reportType })) {
          await widgetData(setUp.client, [report({ campaign, metrics: [metrics[0]] })], range);
          if (reportType === "campaign") continue;
          for (const adGroup of await list("adGroups", { property, reportType, campaign })) {
            await widgetData(setUp.client, [report({ campaign, adGroup, metrics: [metrics[0]] })], range);
            if (reportType !== "ad") continue;
            for (const ad of await list("ads", { property, reportType, campaign, adGroup })) {
              await widgetData(setUp.client, [report({ campaign, adGroup, ad, metrics: [metrics[0]] })], range);
            }
          }
        }
      }
    }
    const report = await checkCalls(description, setUp.fakes.url, setUp.fakes.calls);
    expect(report.requests.length).toBeGreaterThan(30);
    expect(report.problems).toEqual([]);
    expect(report.failed).toEqual([]);
    const froms = new Set(
      setUp.fakes.calls.map((call) => /FROM ([a-z_]+)/.exec(call.body)?.[1]).filter((from) => from !== undefined),
    );
    expect(froms).toEqual(
      new Set(["customer_client", "customer", "campaign", "ad_group", "ad_group_ad", "keyword_view"]),
    );
  });

  it("reports a query Google would refuse and an answer unlike Google's, saying what is wrong", () => {
    expect(
      checkGaql("SELECT ad_group.id, metrics.clicks FROM campaign WHERE segments.date DURING LAST_7_DAYS"),
    ).toEqual(["SELECT ad_group.id: not selectable FROM campaign in v24"]);
    expect(checkGaql("SELECT campaign.id FROM campaigns")[0]).toContain("FROM campaigns: not a pinned resource");
    expect(checkGaql("SELECT metrics.clickz FROM campaign WHERE campaign.statuz = 'ENABLED'")).toEqual([
      "SELECT metrics.clickz: not selectable FROM campaign in v24",
      "WHERE campaign.statuz: not selectable FROM campaign in v24",
    ]);
    expect(checkGaql("campaign.id FROM campaign")[0]).toContain("not a GAQL query");
    const call = (path: string, body: unknown) =>
      describedRequest("https://googleads.googleapis.com", {
        method: "POST",
        url: path,
        path,
        query: {},
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect(description.checkRequest(call("/v23/customers/123/googleAds:searchStream", { query: "" }))[0]).toContain(
      "not a call of Google Ads v24",
    );
    const stream = call("/v24/customers/123/googleAds:searchStream", {
      query: "SELECT campaign.id, metrics.clicks FROM campaign",
    });
    expect(description.checkRequest(stream)).toEqual([]);
    expect(
      description.checkResponse(stream, 200, [
        {
          results: [
            { campaign: { resourceName: "customers/123/campaigns/1", id: "1", name: "A" }, metrics: { clicks: "2" } },
          ],
          fieldMask: "campaign.id,metrics.clicks",
        },
      ]),
    ).toEqual(["searchStream: answer[0].results[0].campaign.name: not selected by the query"]);
    expect(description.checkResponse(stream, 200, { results: [] })).toEqual([
      "searchStream: the answer is not an array of batches",
    ]);
  });
});
