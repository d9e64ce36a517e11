import { connectByConsent, connectorScenarios } from "../../../test/connector-scenarios/kit";
import {
  MARKETING,
  metaDown,
  metaNotices,
  metaThrottled,
  revokeMetaGrant,
} from "../../../test/connector-scenarios/meta";
import { metaFake } from "../meta/fake";
import { metaAdsFake } from "./fake";

const SHOP = "101000000000001";
const LEADS = "101000000000002";
/** Without a dimension: one insights request (the account over the range) per query. */
const insights = (metric: string, account = SHOP) => ({
  type: "facebookAds.insights",
  inputs: { metrics: [metric], property: account },
});
/** By day: the totals request (one row) and the days' request, paged. */
const byDay = (metric: string, account = SHOP) => ({
  type: "facebookAds.insights",
  inputs: { dimension: "date", metrics: [metric], property: account },
});
const insightsOf = (account: string) => `${MARKETING}/act_${account}/insights`;

connectorScenarios({
  title: "Facebook Ads",
  fakes: () => {
    const meta = metaFake();
    return { meta, ads: metaAdsFake(meta.state) };
  },
  part: "meta",
  connect: (client) => connectByConsent(client, "facebookAds"),
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
  notices: metaNotices("Facebook Ads"),
  revoke: async (fakes) => revokeMetaGrant(fakes.parts.meta),
  // Meta throttling the ad account (80000, ads_insights).
  limited: metaThrottled(`act_${LEADS}`, {
    type: "ads_insights",
    code: 80000,
    subcode: 2446079,
    message: "There have been too many calls from this ad-account. Wait a bit and try again.",
    wait: 5,
  }),
  down: metaDown(`act_${SHOP}`),
  malformed: [{ status: 200, pathIncludes: `act_${SHOP}/insights`, body: '{"data": [{"impressions": ' }],
  settled: { query: insights("clicks"), range: { startDate: "2026-09-01", endDate: "2026-09-30" } },
  // Cursor paging (`paging.next`, `cursors.after`) of the days' request; the totals' request is one row.
  paging: {
    query: byDay("clicks"),
    pageSize: (fakes, size) => {
      const before = fakes.parts.ads.insightsPageSize;
      fakes.parts.ads.insightsPageSize = size;
      return () => {
        fakes.parts.ads.insightsPageSize = before;
      };
    },
    requests: (call) => call.path === insightsOf(SHOP) && call.query.time_increment === "1",
    cap: { pages: 50, beyond: "kept" },
  },
  // Meta reports in the ad account's zone: the viewer's days go as `time_range` dates.
  zone: {
    query: byDay("impressions"),
    askedDays: (call) => {
      if (!call.query.time_range) return null;
      const { since, until } = JSON.parse(call.query.time_range) as { since: string; until: string };
      return { first: since, last: until };
    },
  },
  // Acme Shop's ad account is in euros.
  currency: { query: insights("spend"), code: "EUR" },
});
