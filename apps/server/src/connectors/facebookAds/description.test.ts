import { afterAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { checkCalls } from "../../../test/fakes/described";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { metaFake } from "../meta/fake";
import { META_DEFAULT_VERSIONS } from "../meta/versions";
import { metaAdsFake } from "./fake";
import { facebookAdsConnector } from "./index";

/**
 * Facebook Ads' requests and answers against Meta's business SDK objects for the pinned Graph version
 * (./graph-sdk.json, docs/connectors.md "Facebook Ads"): every request the connector builds for every
 * level, campaign, dimension (breakdown) and metric its form offers names fields, breakdowns and levels
 * the SDK lists, and every answer the fake gives carries only described fields, typed as described.
 */

const fakes = fakesForFile(afterAll, () => {
  const meta = metaFake();
  return { meta, ads: metaAdsFake(meta.state) };
});
const TYPE = "facebookAds.insights";
const SHOP = "101000000000001";
const description = () => {
  if (!facebookAdsConnector.description) throw new Error("Facebook Ads has no pinned description");
  return facebookAdsConnector.description();
};

const options = async (client: TestClient, id: string, kind: string, extra = "") =>
  ((await client.api("GET", `/api/sources/${id}/${kind}?type=${TYPE}${extra}`)).json().data as { value: string }[]).map(
    (option) => option.value,
  );

describeEachDb(
  "Facebook Ads against Meta's business SDK objects",
  (env) => {
    it("every request each level, campaign, dimension and metric builds is described, and so is every answer", async () => {
      const { client } = await buildOwner(env());
      const from = (await fakes.current()).calls.length;
      const connected = await connectOAuth(client, "facebookAds");
      expect(connected.result).toMatchObject({ ok: true });
      const id = connected.result.sourceId as string;
      expect(await options(client, id, "properties")).toContain(SHOP);
      const levels = await options(client, id, "levels");
      const campaigns = await options(client, id, "campaigns", `&property=${SHOP}`);
      const dimensions = await options(client, id, "dimensions");
      const metrics = await options(client, id, "metrics");
      const week = { startDate: "2026-07-01", endDate: "2026-07-07", comparison: false };
      for (const level of levels) {
        for (const campaign of [undefined, campaigns[0]]) {
          const widgets = [undefined, ...dimensions].map((dimension) =>
            instance(id, TYPE, {
              property: SHOP,
              level,
              metrics,
              ...(dimension && { dimension }),
              ...(campaign && { campaign }),
            }),
          );
          const response = await widgetData(client, widgets, week);
          expect(response.statusCode, response.body).toBe(200);
        }
      }
      // A long range by day at ad level: the asynchronous report run, its polls and its pages.
      const long = { startDate: "2026-05-01", endDate: "2026-08-28", comparison: false };
      const run = await widgetData(
        client,
        [instance(id, TYPE, { property: SHOP, level: "ad", dimension: "date", metrics })],
        long,
      );
      expect(run.statusCode, run.body).toBe(200);

      const calls = (await fakes.current()).calls
        .slice(from)
        .filter((call) => /^\/v\d+\.\d+\/(act_|me\/adaccounts|\d)/.test(call.path));
      const kinds = new Set(calls.map((call) => `${call.method} ${call.path.replace(/\d{6,}/g, "{id}")}`));
      // Facebook Ads calls the Marketing API's own version (connectors/meta/versions.ts).
      const v = META_DEFAULT_VERSIONS.marketing;
      expect([...kinds].sort()).toEqual(
        [
          `GET /${v}/act_{id}`,
          `GET /${v}/act_{id}/campaigns`,
          `GET /${v}/act_{id}/insights`,
          `GET /${v}/me/adaccounts`,
          `GET /${v}/{id}`,
          `GET /${v}/{id}/insights`,
          `POST /${v}/act_{id}/insights`,
        ].filter((kind) => kinds.has(kind) || kind !== `GET /${v}/act_{id}`),
      );
      const breakdowns = new Set(calls.map((call) => call.query.breakdowns).filter(Boolean));
      expect(breakdowns.size).toBe(5);
      const { checked, problems } = checkCalls(await description(), calls);
      expect(problems).toEqual([]);
      expect(checked).toBe(calls.length);
    });
  },
  fakes.env,
);

describe("Facebook Ads' description checks bite", () => {
  const url = (path: string, query: Record<string, string> = {}) => {
    const address = new URL(`https://graph.facebook.com${path}`);
    for (const [name, value] of Object.entries(query)) address.searchParams.set(name, value);
    return address;
  };
  it("a wrong request is reported: unknown field, breakdown, level, parameter, version", async () => {
    const checks = await description();
    const request = {
      method: "GET",
      url: url(`/v25.0/act_${SHOP}/insights`, {
        fields: "impressions,conversions_value",
        breakdowns: "age,city",
        level: "campaigns",
        time_increment: "7d",
        time_range: JSON.stringify({ since: "2026-07-01" }),
        period: "day",
      }),
    };
    expect(checks.checkRequest(request)).toEqual([
      `GET /act_${SHOP}/insights: unknown parameter period`,
      `GET /act_${SHOP}/insights: fields: "conversions_value" is not one the SDK lists`,
      `GET /act_${SHOP}/insights: breakdowns: "city" is not one the SDK lists`,
      `GET /act_${SHOP}/insights: level: "campaigns" is not one of account, ad, adset, campaign`,
      `GET /act_${SHOP}/insights: time_increment: "7d" is not all_days, monthly or 1 to 90 days`,
      `GET /act_${SHOP}/insights: time_range: {"since":"2026-07-01"} is not {"since":"YYYY-MM-DD","until":"YYYY-MM-DD"}`,
    ]);
    expect(checks.checkRequest({ method: "GET", url: url(`/v26.0/act_${SHOP}`, { fields: "currency" }) })).toEqual([
      `GET /act_${SHOP}: the request names Graph v26.0, the pinned SDK objects are v25.0's (refresh graph-sdk.json)`,
    ]);
    expect(
      checks.checkRequest({ method: "GET", url: url(`/v25.0/act_${SHOP}`, { fields: "currency,balance_due" }) }),
    ).toEqual([`GET /act_${SHOP}: fields: "balance_due" is not a field of AdAccount`]);
  });

  it("a wrong answer is reported: a number where Meta sends a string, an unknown field, a bad action", async () => {
    const checks = await description();
    const request = { method: "GET", url: url(`/v25.0/act_${SHOP}/insights`, { fields: "impressions,actions" }) };
    const answer = {
      data: [{ impressions: 1200, clicks_total: "4", actions: [{ action_type: "purchase", value: 3 }], age: "18-24" }],
      paging: { cursors: { before: "a", after: "b" } },
    };
    expect(checks.checkResponse(request, 200, answer)).toEqual([
      `GET /act_${SHOP}/insights → 200: answer.data[0].impressions: 1200 where the SDK says string`,
      `GET /act_${SHOP}/insights → 200: answer.data[0].clicks_total: not a field of AdsInsights`,
      `GET /act_${SHOP}/insights → 200: answer.data[0].actions[0].value: 3 where the SDK says string`,
    ]);
    expect(checks.checkResponse(request, 400, { message: "bad" })).toEqual([
      `GET /act_${SHOP}/insights → 400: answer: not a Graph error ({error: {message, type, code, fbtrace_id}})`,
    ]);
  });
});
