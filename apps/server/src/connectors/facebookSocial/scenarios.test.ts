import { expect } from "vitest";
import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { META_PAGES, META_USER, metaFake } from "../meta/fake";

const BAKERY: string = META_PAGES[0].id;
const SHOES: string = META_PAGES[1].id;
/** One Page insights request (a window of at most 90 days) per query. */
const page = (metric: string, property = BAKERY) => ({
  type: "facebookSocial.insights",
  inputs: { metrics: [metric], property },
});
const insightsOf = (pageId: string) => `/v25.0/${pageId}/insights`;

connectorScenarios({
  title: "Facebook Social",
  fakes: () => ({ meta: metaFake() }),
  part: "meta",
  connect: async (client) => {
    const connected = await connectOAuth(client, "facebookSocial");
    expect(connected.result).toMatchObject({ ok: true, connector: "facebookSocial" });
    return connected.result.sourceId;
  },
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
  notices: {
    limited: "Facebook Social is limiting requests",
    down: "Facebook Social is not answering",
    reconnect: "Facebook Social needs to be reconnected",
  },
  // The user removing the app's grant: Meta refuses the user's and the Pages' tokens (code 190).
  revoke: async (fakes) => {
    fakes.parts.meta.revoked.add(META_USER.id);
    return () => {
      fakes.parts.meta.revoked.delete(META_USER.id);
    };
  },
  // Meta throttling (code 4) with the business use case header naming the wait.
  limited: [
    {
      status: 400,
      pathIncludes: `/${SHOES}/insights`,
      headers: {
        "x-business-use-case-usage": JSON.stringify({
          [SHOES]: [
            { type: "pages", call_count: 100, total_cputime: 20, total_time: 30, estimated_time_to_regain_access: 5 },
          ],
        }),
        "x-app-usage": JSON.stringify({ call_count: 12, total_cputime: 3, total_time: 4 }),
      },
      body: {
        error: {
          message: "(#4) Application request limit reached",
          type: "OAuthException",
          is_transient: true,
          code: 4,
          fbtrace_id: "AthrottleTrace",
        },
      },
    },
  ],
  down: Array.from({ length: 3 }, () => ({
    status: 500,
    pathIncludes: `/${BAKERY}/insights`,
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
  malformed: [{ status: 200, pathIncludes: `/${BAKERY}/insights`, body: '{"data": [{"name": "page_views_total", ' }],
  settled: { query: page("page_views_total"), range: { startDate: "2026-09-01", endDate: "2026-09-30" } },
});
