import { shiftDay } from "@app/core";
import { connectByConsent, connectorScenarios, refuseStoredToken } from "../../../test/connector-scenarios/kit";
import { linkedinDown, linkedinNotices, linkedinQuotaReached } from "../../../test/connector-scenarios/linkedin";
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
  connect: (client) => connectByConsent(client, "linkedinSocial"),
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
  notices: linkedinNotices("LinkedIn Social"),
  revoke: async (fakes, env, sourceId) => refuseStoredToken(fakes.parts.linkedin.revoked, env, sourceId),
  limited: linkedinQuotaReached("organizationalEntityShareStatistics"),
  down: linkedinDown("organizationalEntityShareStatistics", 504, "Gateway timeout"),
  malformed: [{ status: 200, pathIncludes: "organizationalEntityShareStatistics", body: '{"elements": [{"' }],
  settled: { query: shares("clicks"), range: { startDate: "2026-09-01", endDate: "2026-09-30" } },
  // Time-bound statistics do not page (one element a day). LinkedIn counts days in UTC and takes only
  // UTC midnights as a DAY interval's bounds (docs/connectors.md, LinkedIn Social), so it has no zone to
  // ask in: the viewer's dates are sent as LinkedIn's days of the same names. It keeps 12 months only.
  zone: {
    query: { type: "linkedinSocial.shares", inputs: { dimension: "date", metrics: ["impressions"], property: BAKERY } },
    askedDays: (call) => {
      const found = /timeRange:\(start:(\d+),end:(\d+)\)/.exec(call.query.timeIntervals ?? "");
      if (call.path !== SHARES || !found) return null;
      const utcDay = (ms: string) => new Date(Number(ms)).toISOString().slice(0, 10);
      return { first: utcDay(found[1] ?? ""), last: shiftDay(utcDay(found[2] ?? ""), -1) };
    },
    recentOnly: true,
  },
});
