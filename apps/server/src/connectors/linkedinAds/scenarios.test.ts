import { connectByConsent, connectorScenarios, refuseStoredToken } from "../../../test/connector-scenarios/kit";
import { linkedinDown, linkedinNotices, linkedinQuotaReached } from "../../../test/connector-scenarios/linkedin";
import { LINKEDIN_ACCOUNTS, LINKEDIN_PREFIX, linkedinFake } from "../linkedin/fake";

const SHOES = String(LINKEDIN_ACCOUNTS[0].id);
const CAREERS = String(LINKEDIN_ACCOUNTS[1].id);
const ANALYTICS = `${LINKEDIN_PREFIX}/rest/adAnalytics`;
/** One adAnalytics request per query. */
const analytics = (metric: string, account = SHOES) => ({
  type: "linkedinAds.analytics",
  inputs: { metrics: [metric], property: account },
});

/** A Rest.li date (`(year:2025,month:6,day:1)`) as a day. */
const day = (year: string, month: string, date: string) => `${year}-${month.padStart(2, "0")}-${date.padStart(2, "0")}`;
const DATE_RANGE = /start:\(year:(\d+),month:(\d+),day:(\d+)\),end:\(year:(\d+),month:(\d+),day:(\d+)\)/;

connectorScenarios({
  title: "LinkedIn Ads",
  fakes: () => ({ linkedin: linkedinFake() }),
  part: "linkedin",
  connect: (client) => connectByConsent(client, "linkedinAds"),
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
  notices: linkedinNotices("LinkedIn Ads"),
  revoke: async (fakes, env, sourceId) => refuseStoredToken(fakes.parts.linkedin.revoked, env, sourceId),
  limited: linkedinQuotaReached("/rest/adAnalytics"),
  down: linkedinDown("/rest/adAnalytics"),
  malformed: [{ status: 200, pathIncludes: "/rest/adAnalytics", body: '{"elements": [{"impressions": ' }],
  settled: { query: analytics("impressions"), range: { startDate: "2026-09-01", endDate: "2026-09-30" } },
  // adAnalytics has no paging (one answer per request, at most 15,000 elements); the finders' cursor
  // paging (campaigns, creatives) lists options, not numbers.
  // LinkedIn reports in UTC days; the viewer's days go as the `dateRange` as they are.
  zone: {
    query: { type: "linkedinAds.analytics", inputs: { dimension: "date", metrics: ["clicks"], property: SHOES } },
    askedDays: (call) => {
      const found = DATE_RANGE.exec(call.query.dateRange ?? "");
      if (!found) return null;
      const [, y1 = "", m1 = "", d1 = "", y2 = "", m2 = "", d2 = ""] = found;
      return { first: day(y1, m1, d1), last: day(y2, m2, d2) };
    },
  },
  // Acme Shoes EU's ad account is in euros.
  currency: { query: analytics("cost"), code: "EUR" },
});
