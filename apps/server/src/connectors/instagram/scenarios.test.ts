import { connectByConsent, connectorScenarios } from "../../../test/connector-scenarios/kit";
import {
  GRAPH,
  metaDown,
  metaInsightsDays,
  metaNotices,
  metaThrottled,
  revokeMetaGrant,
} from "../../../test/connector-scenarios/meta";
import { META_PAGES, metaFake } from "../meta/fake";

const BAKERY_IG: string = META_PAGES[0].ig.id;
const SHOES_IG: string = META_PAGES[1].ig.id;
/** Profile totals over a range of at most 30 days: one insights request per query. */
const profile = (metric: string, property = BAKERY_IG) => ({
  type: "instagram.insights",
  inputs: { metrics: [metric], property, target: "profile" },
});
const insightsOf = (account: string) => `${GRAPH}/${account}/insights`;

connectorScenarios({
  title: "Instagram",
  fakes: () => ({ meta: metaFake() }),
  part: "meta",
  connect: (client) => connectByConsent(client, "instagram"),
  // The limited query has an account of its own: Meta's throttling holds the account for the time it names.
  queries: [
    profile("likes", SHOES_IG),
    profile("likes"),
    profile("comments"),
    profile("shares"),
    profile("saves"),
    profile("replies"),
    profile("total_interactions"),
  ],
  upstream: (call) => call.path === insightsOf(BAKERY_IG) || call.path === insightsOf(SHOES_IG),
  notices: metaNotices("Instagram"),
  revoke: async (fakes) => revokeMetaGrant(fakes.parts.meta),
  // Meta throttling an Instagram account (80001).
  limited: metaThrottled(SHOES_IG, {
    type: "instagram",
    code: 80001,
    message: "(#80001) There have been too many calls to this Instagram account. Wait a bit and try again.",
    wait: 12,
  }),
  down: metaDown(BAKERY_IG, 503),
  malformed: [{ status: 200, pathIncludes: `/${BAKERY_IG}/insights`, body: '{"data": [{"name": "likes", ' }],
  settled: { query: profile("views"), range: { startDate: "2026-09-01", endDate: "2026-09-20" } },
  // No paging of numbers: profile insights come in 30-day windows and a post's insights in one answer.
  // Posts are listed by cursor for the post picker (an option list, not a query's rows):
  // instagram.test.ts proves its pages and its bound. Reach by day (the one daily series), `since` the first day and `until` the day after the last.
  zone: {
    query: {
      type: "instagram.insights",
      inputs: { dimension: "date", metrics: ["reach"], property: BAKERY_IG, target: "profile" },
    },
    askedDays: metaInsightsDays,
  },
});
