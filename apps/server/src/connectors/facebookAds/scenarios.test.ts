import { expect } from "vitest";
import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { unseal } from "../../infra/security";
import { metaFake } from "../meta/fake";
import { metaAdsFake } from "./fake";

const SHOP = "101000000000001";
const LEADS = "101000000000002";
/** Without a dimension: one insights request (the account over the range) per query. */
const insights = (metric: string, account = SHOP) => ({
  type: "facebookAds.insights",
  inputs: { metrics: [metric], property: account },
});
const insightsOf = (account: string) => `/v27.0/act_${account}/insights`;

connectorScenarios({
  title: "Facebook Ads",
  fakes: () => {
    const meta = metaFake();
    return { meta, ads: metaAdsFake(meta.state) };
  },
  part: "meta",
  connect: async (client) => {
    const connected = await connectOAuth(client, "facebookAds");
    expect(connected.result).toMatchObject({ ok: true, connector: "facebookAds" });
    return connected.result.sourceId;
  },
  // The limited query has an ad account of its own: Meta's throttling holds the account for the time it names.
  queries: [
    insights("impressions", LEADS),
    insights("impressions"),
    insights("clicks"),
    insights("link_clicks"),
    insights("reach"),
    insights("purchases"),
    insights("leads"),
  ],
  upstream: (call) => call.path === insightsOf(SHOP) || call.path === insightsOf(LEADS),
  notices: {
    limited: "Facebook Ads is limiting requests",
    down: "Facebook Ads is not answering",
    reconnect: "Facebook Ads needs to be reconnected",
  },
  revoke: async (fakes, env, sourceId) => {
    const row = await env.ctx.db
      .selectFrom("sources")
      .select("credentials")
      .where("id", "=", sourceId)
      .executeTakeFirstOrThrow();
    const token = JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")).access_token ?? "";
    fakes.parts.meta.revoked.add(token);
    return () => {
      fakes.parts.meta.revoked.delete(token);
    };
  },
  // Meta throttling the ad account (80000), with the business use case header naming the wait.
  limited: [
    {
      status: 400,
      pathIncludes: `act_${LEADS}/insights`,
      headers: {
        "x-business-use-case-usage": JSON.stringify({
          [LEADS]: [
            {
              type: "ads_insights",
              call_count: 100,
              total_cputime: 40,
              total_time: 60,
              estimated_time_to_regain_access: 5,
            },
          ],
        }),
      },
      body: {
        error: {
          message: "There have been too many calls from this ad-account. Wait a bit and try again.",
          type: "OAuthException",
          code: 80000,
          error_subcode: 2446079,
          is_transient: true,
          fbtrace_id: "AfakeThrottle",
        },
      },
    },
  ],
  down: Array.from({ length: 3 }, () => ({
    status: 500,
    pathIncludes: `act_${SHOP}/insights`,
    body: {
      error: {
        message: "An unexpected error has occurred. Please retry your request later.",
        type: "OAuthException",
        code: 2,
        is_transient: true,
        fbtrace_id: "AfakeOutage",
      },
    },
  })),
  malformed: [{ status: 200, pathIncludes: `act_${SHOP}/insights`, body: '{"data": [{"impressions": ' }],
  settled: { query: insights("clicks"), range: { startDate: "2026-09-01", endDate: "2026-09-30" } },
});
