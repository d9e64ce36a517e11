import { expect } from "vitest";
import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { unseal } from "../../infra/security";
import { LINKEDIN_ACCOUNTS, LINKEDIN_PREFIX, linkedinFake } from "../linkedin/fake";

const SHOES = String(LINKEDIN_ACCOUNTS[0].id);
const CAREERS = String(LINKEDIN_ACCOUNTS[1].id);
const ANALYTICS = `${LINKEDIN_PREFIX}/rest/adAnalytics`;
/** One adAnalytics request per query. */
const analytics = (metric: string, account = SHOES) => ({
  type: "linkedinAds.analytics",
  inputs: { metrics: [metric], property: account },
});

connectorScenarios({
  title: "LinkedIn Ads",
  fakes: () => ({ linkedin: linkedinFake() }),
  part: "linkedin",
  connect: async (client) => {
    const connected = await connectOAuth(client, "linkedinAds");
    expect(connected.result).toMatchObject({ ok: true, connector: "linkedinAds" });
    return connected.result.sourceId;
  },
  // LinkedIn limits only by the day: its 429 is a quota held until midnight UTC, so the limited query has
  // an ad account of its own.
  queries: [
    analytics("clicks", CAREERS),
    analytics("clicks"),
    analytics("impressions"),
    analytics("conversions"),
    analytics("leads"),
    analytics("ctr"),
    analytics("cpc"),
  ],
  upstream: (call) => call.path === ANALYTICS,
  notices: {
    limited: "LinkedIn Ads quota reached",
    down: "LinkedIn Ads is not answering",
    reconnect: "LinkedIn Ads needs to be reconnected",
  },
  revoke: async (fakes, env, sourceId) => {
    const row = await env.ctx.db
      .selectFrom("sources")
      .select("credentials")
      .where("id", "=", sourceId)
      .executeTakeFirstOrThrow();
    const token = JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")).access_token ?? "";
    fakes.parts.linkedin.revoked.add(token);
    return () => {
      fakes.parts.linkedin.revoked.delete(token);
    };
  },
  limited: [
    {
      status: 429,
      pathIncludes: "/rest/adAnalytics",
      body: { status: 429, message: "Resource level throttle APPLICATION DAY limit reached" },
    },
  ],
  down: Array.from({ length: 3 }, () => ({
    status: 503,
    pathIncludes: "/rest/adAnalytics",
    body: { status: 503, message: "Service unavailable" },
  })),
  malformed: [{ status: 200, pathIncludes: "/rest/adAnalytics", body: '{"elements": [{"impressions": ' }],
  settled: { query: analytics("impressions"), range: { startDate: "2026-09-01", endDate: "2026-09-30" } },
});
