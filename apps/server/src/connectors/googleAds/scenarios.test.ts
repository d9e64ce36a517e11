import { connectGoogle, googleError, revokeGoogleGrant } from "../../../test/connector-scenarios/google";
import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import { googleFake } from "../google/fake";
import { adsFailure, googleAdsFake } from "./fake";

/** Acme Shoes (EUR) and Acme Hats, clients of the Acme Agency MCC: reached with the manager as login-customer-id. */
const SHOES = "1112223333:4445556666";
const HATS = "1112223333:7778889999";
/** Counts and ratios only: a money metric over days without rows asks the account's currency too. */
const report = (metric: string, property = SHOES) => ({
  type: "googleAds.report",
  inputs: { metrics: [metric], property, reportType: "campaign" },
});

connectorScenarios({
  title: "Google Ads",
  fakes: () => {
    const google = googleFake();
    return { google, ads: googleAdsFake(google.state) };
  },
  part: "ads",
  connect: (client) => connectGoogle(client, "googleAds"),
  // The limited query has an account of its own (Hats): Google's quota answer holds the account's
  // calls until its retryDelay, in this process.
  queries: [
    report("conversions", HATS),
    report("clicks"),
    report("impressions"),
    report("ctr"),
    report("interactions"),
    report("conversions"),
    report("all_conversions"),
  ],
  // The report's GAQL (account listings and the currency's query have no date range).
  upstream: (call) => call.path.endsWith("/googleAds:searchStream") && call.body.includes("segments.date BETWEEN"),
  notices: {
    limited: "Google Ads quota reached",
    down: "Google Ads is not answering",
    reconnect: "Google Ads needs to be reconnected",
  },
  revoke: async (fakes, env, sourceId) => revokeGoogleGrant(fakes.parts.google, env, sourceId),
  // The developer token's operations for the day are spent (searchStream answers its error as the array's element).
  limited: [
    {
      status: 429,
      body: [
        adsFailure("v24", 429, "RESOURCE_EXHAUSTED", { quotaError: "RESOURCE_EXHAUSTED" }, "Too many requests.", {
          quotaErrorDetails: { rateScope: "DEVELOPER", rateName: "Number of operations", retryDelay: "3600s" },
        }),
      ],
    },
  ],
  down: Array.from({ length: 3 }, () => ({
    status: 503,
    body: [googleError(503, "UNAVAILABLE", "The service is currently unavailable.")],
  })),
  malformed: [{ status: 200, body: '[{"results": [{"metrics": {' }],
  settled: {
    query: {
      type: "googleAds.report",
      inputs: { metrics: ["clicks", "impressions"], property: SHOES, reportType: "campaign" },
    },
    range: { startDate: "2026-08-01", endDate: "2026-08-31" },
  },
  // searchStream streams every row in one answer: no paging. Acme Shoes' account is in euros.
  currency: { query: report("cost"), code: "EUR" },
  // GAQL dates are the account's days, sent as the viewer's range.
  zone: {
    query: {
      type: "googleAds.report",
      inputs: { dimension: "date", metrics: ["clicks"], property: SHOES, reportType: "campaign" },
    },
    askedDays: (call) => {
      const found = /segments\.date BETWEEN '(\d{4}-\d{2}-\d{2})' AND '(\d{4}-\d{2}-\d{2})'/.exec(call.body);
      return found ? { first: found[1] ?? "", last: found[2] ?? "" } : null;
    },
  },
});
