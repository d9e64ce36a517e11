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

const BAKERY: string = META_PAGES[0].id;
const SHOES: string = META_PAGES[1].id;
/** One Page insights request (a window of at most 90 days) per query. */
const page = (metric: string, property = BAKERY) => ({
  type: "facebookSocial.insights",
  inputs: { metrics: [metric], property },
});
const insightsOf = (pageId: string) => `${GRAPH}/${pageId}/insights`;

connectorScenarios({
  title: "Facebook Social",
  fakes: () => ({ meta: metaFake() }),
  part: "meta",
  connect: (client) => connectByConsent(client, "facebookSocial"),
  // The limited query has a Page of its own: Meta's throttling holds the Page for the time it names.
  queries: [
    page("page_post_engagements", SHOES),
    page("page_post_engagements"),
    page("page_media_view"),
    page("page_views_total"),
    page("page_daily_follows_unique"),
    page("page_daily_unfollows_unique"),
    page("page_video_views"),
  ],
  upstream: (call) => call.path === insightsOf(BAKERY) || call.path === insightsOf(SHOES),
  notices: metaNotices("Facebook Social"),
  revoke: async (fakes) => revokeMetaGrant(fakes.parts.meta),
  // Meta throttling the Page (code 4), with the app's usage beside the business use case's.
  limited: metaThrottled(SHOES, {
    type: "pages",
    code: 4,
    message: "(#4) Application request limit reached",
    wait: 5,
    appUsage: true,
  }),
  down: metaDown(BAKERY),
  malformed: [{ status: 200, pathIncludes: `/${BAKERY}/insights`, body: '{"data": [{"name": "page_views_total", ' }],
  settled: { query: page("page_views_total"), range: { startDate: "2026-09-01", endDate: "2026-09-30" } },
  // Page insights by day, `since` the first day and `until` the day after the last (the Page's days).
  zone: {
    query: {
      type: "facebookSocial.insights",
      inputs: { dimension: "date", metrics: ["page_views_total"], property: BAKERY },
    },
    askedDays: metaInsightsDays,
  },
});
