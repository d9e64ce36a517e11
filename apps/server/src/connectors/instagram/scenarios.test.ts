import { expect } from "vitest";
import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { META_PAGES, META_USER, metaFake } from "../meta/fake";

const BAKERY_IG: string = META_PAGES[0].ig.id;
const SHOES_IG: string = META_PAGES[1].ig.id;
/** Profile totals over a range of at most 30 days: one insights request per query. */
const profile = (metric: string, property = BAKERY_IG) => ({
  type: "instagram.insights",
  inputs: { metrics: [metric], property, target: "profile" },
});
const insightsOf = (account: string) => `/v25.0/${account}/insights`;

connectorScenarios({
  title: "Instagram",
  fakes: () => ({ meta: metaFake() }),
  part: "meta",
  connect: async (client) => {
    const connected = await connectOAuth(client, "instagram");
    expect(connected.result).toMatchObject({ ok: true, connector: "instagram" });
    return connected.result.sourceId;
  },
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
  notices: {
    limited: "Instagram is limiting requests",
    down: "Instagram is not answering",
    reconnect: "Instagram needs to be reconnected",
  },
  // The user removing the app's grant: Meta refuses the user's and the Pages' tokens (code 190).
  revoke: async (fakes) => {
    fakes.parts.meta.revoked.add(META_USER.id);
    return () => {
      fakes.parts.meta.revoked.delete(META_USER.id);
    };
  },
  // Meta throttling an Instagram account (80001) with the business use case header naming the wait.
  limited: [
    {
      status: 400,
      pathIncludes: `/${SHOES_IG}/insights`,
      headers: {
        "x-business-use-case-usage": JSON.stringify({
          [SHOES_IG]: [
            {
              type: "instagram",
              call_count: 100,
              total_cputime: 9,
              total_time: 14,
              estimated_time_to_regain_access: 12,
            },
          ],
        }),
      },
      body: {
        error: {
          message: "(#80001) There have been too many calls to this Instagram account. Wait a bit and try again.",
          type: "OAuthException",
          code: 80001,
          fbtrace_id: "AthrottleTrace",
        },
      },
    },
  ],
  down: Array.from({ length: 3 }, () => ({
    status: 503,
    pathIncludes: `/${BAKERY_IG}/insights`,
    body: {
      error: {
        message: "Service temporarily unavailable",
        type: "OAuthException",
        code: 2,
        is_transient: true,
        fbtrace_id: "AfakeOutage",
      },
    },
  })),
  malformed: [{ status: 200, pathIncludes: `/${BAKERY_IG}/insights`, body: '{"data": [{"name": "likes", ' }],
  settled: { query: profile("views"), range: { startDate: "2026-09-01", endDate: "2026-09-20" } },
});
