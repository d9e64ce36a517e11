import { connectGoogle, googleError, revokeGoogleGrant } from "../../../test/connector-scenarios/google";
import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import { googleFake } from "../google/fake";
import { searchConsoleFake } from "./fake";

const SEARCH_ANALYTICS = /^\/webmasters\/v3\/sites\/[^/].*\/searchAnalytics\/query$/;
/** A Search Console performance widget; inputs as the data path normalises them (declared keys, sorted). */
const performance = (metrics: string[], property = "https://acme.com/") => ({
  type: "searchConsole.performance",
  inputs: { metrics, property },
});
/** Faults for one site's queries only (the fake matches them against the decoded path). */
const atSite = (site: string, status: number, body: unknown, headers?: Record<string, string>) => ({
  status,
  body,
  pathIncludes: `/sites/${site}/searchAnalytics`,
  ...(headers && { headers }),
});

connectorScenarios({
  title: "Search Console",
  fakes: () => {
    const google = googleFake();
    return { google, searchConsole: searchConsoleFake(google.state) };
  },
  part: "searchConsole",
  connect: (client) => connectGoogle(client, "searchConsole"),
  // The limited and down queries have sites of their own: a throttled site is not asked again before
  // its Retry-After is over (the client's hold is per site).
  queries: [
    performance(["clicks"], "https://throttled.example/"),
    performance(["clicks"], "https://outage.example/"),
    performance(["impressions"]),
    performance(["ctr"]),
    performance(["position"]),
    performance(["clicks"], "sc-domain:acme.com"),
    performance(["impressions"], "sc-domain:acme.com"),
  ],
  upstream: (call) => SEARCH_ANALYTICS.test(call.path),
  notices: {
    limited: "Search Console is limiting requests",
    down: "Search Console is not answering",
    reconnect: "Search Console needs to be reconnected",
  },
  revoke: async (fakes, env, sourceId) => revokeGoogleGrant(fakes.parts.google, env, sourceId),
  limited: [
    atSite("https://throttled.example/", 429, googleError(429, "RESOURCE_EXHAUSTED", "Too many requests."), {
      "retry-after": "120",
    }),
  ],
  down: Array.from({ length: 3 }, () =>
    atSite("https://outage.example/", 503, googleError(503, "UNAVAILABLE", "The service is currently unavailable.")),
  ),
  malformed: [atSite("https://acme.com/", 200, '{"rows": [{"keys": [')],
  settled: {
    query: performance(["clicks", "impressions"], "sc-domain:acme.com"),
    range: { startDate: "2026-08-01", endDate: "2026-08-31" },
  },
  // Rows come 25,000 a page (`startRow`, until a page comes back short): no query by day reaches a
  // second page, so the paging scenarios do not apply; search-console.test.ts pages a long query list.
  // The property's days (Pacific time) are sent as the viewer's range.
  zone: {
    query: {
      type: "searchConsole.performance",
      inputs: { dimension: "date", metrics: ["clicks"], property: "https://acme.com/" },
    },
    askedDays: (call) => {
      if (!SEARCH_ANALYTICS.test(call.path)) return null;
      const body = JSON.parse(call.body) as { startDate: string; endDate: string };
      return { first: body.startDate, last: body.endDate };
    },
  },
});
