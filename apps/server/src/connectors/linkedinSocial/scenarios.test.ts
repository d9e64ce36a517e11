import { expect } from "vitest";
import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { unseal } from "../../infra/security";
import { LINKEDIN_ORGANIZATIONS, LINKEDIN_PREFIX, linkedinFake } from "../linkedin/fake";

const BAKERY = String(LINKEDIN_ORGANIZATIONS[0].id);
const SHOES = String(LINKEDIN_ORGANIZATIONS[1].id);
const SHARES = `${LINKEDIN_PREFIX}/rest/organizationalEntityShareStatistics`;
/** Share statistics without a dimension: one time-bound request per query. */
const shares = (metric: string, organization = BAKERY) => ({
  type: "linkedinSocial.shares",
  inputs: { metrics: [metric], property: organization },
});

connectorScenarios({
  title: "LinkedIn Social",
  fakes: () => ({ linkedin: linkedinFake() }),
  part: "linkedin",
  connect: async (client) => {
    const connected = await connectOAuth(client, "linkedinSocial");
    expect(connected.result).toMatchObject({ ok: true, connector: "linkedinSocial" });
    return connected.result.sourceId;
  },
  // LinkedIn limits only by the day: its 429 is a quota held until midnight UTC, so the limited query has
  // an organization of its own.
  queries: [
    shares("impressions", SHOES),
    shares("impressions"),
    shares("clicks"),
    shares("likes"),
    shares("comments"),
    shares("shares"),
    shares("uniqueImpressions"),
  ],
  upstream: (call) => call.path === SHARES,
  notices: {
    limited: "LinkedIn Social quota reached",
    down: "LinkedIn Social is not answering",
    reconnect: "LinkedIn Social needs to be reconnected",
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
      pathIncludes: "organizationalEntityShareStatistics",
      body: { status: 429, message: "Resource level throttle APPLICATION DAY limit reached" },
    },
  ],
  down: Array.from({ length: 3 }, () => ({
    status: 504,
    pathIncludes: "organizationalEntityShareStatistics",
    body: { status: 504, message: "Gateway timeout" },
  })),
  malformed: [{ status: 200, pathIncludes: "organizationalEntityShareStatistics", body: '{"elements": [{"' }],
  settled: { query: shares("clicks"), range: { startDate: "2026-09-01", endDate: "2026-09-30" } },
});
