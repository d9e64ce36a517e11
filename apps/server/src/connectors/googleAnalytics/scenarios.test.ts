import { connectGoogle, googleError, revokeGoogleGrant } from "../../../test/connector-scenarios/google";
import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import { googleFake } from "../google/fake";

const RUN_REPORT = /^\/v1beta\/properties\/\d+:runReport$/;
/** A GA4 report of one metric; inputs as the data path normalises them (declared keys, sorted). */
const report = (metric: string, profile = "2001", property = "1001") => ({
  type: "googleAnalytics.ga4",
  inputs: { metrics: [metric], profile, property },
});
/** Faults for one property's reports only: a retry still running for another property may not take them. */
const atProperty = (profile: string, status: number, body: unknown) => ({
  status,
  body,
  pathIncludes: `/properties/${profile}:runReport`,
});

connectorScenarios({
  title: "Google Analytics",
  fakes: () => ({ google: googleFake() }),
  part: "google",
  connect: (client) => connectGoogle(client, "googleAnalytics"),
  // The limited query has a property of its own (2003): a used-up daily quota holds the property until
  // Google's reset, in this process and every other (googleAnalytics/quota.ts).
  queries: [
    report("sessions", "2003", "1002"),
    report("totalUsers"),
    report("bounceRate"),
    report("averageSessionDuration"),
    report("keyEvents"),
    report("sessions", "2002"),
    report("totalUsers", "2002"),
  ],
  upstream: (call) => RUN_REPORT.test(call.path),
  notices: {
    limited: "Google Analytics quota reached",
    down: "Google Analytics is not answering",
    reconnect: "Google Analytics needs to be reconnected",
  },
  revoke: async (fakes, env, sourceId) => revokeGoogleGrant(fakes.parts.google, env, sourceId),
  limited: [
    atProperty("2003", 429, googleError(429, "RESOURCE_EXHAUSTED", "Exhausted property tokens per day quota.")),
  ],
  down: Array.from({ length: 3 }, () =>
    atProperty("2001", 503, googleError(503, "UNAVAILABLE", "The service is currently unavailable.")),
  ),
  malformed: [atProperty("2001", 200, '{"rows": [{"metricValues": [')],
  settled: { query: report("sessions"), range: { startDate: "2026-09-01", endDate: "2026-09-30" } },
  // The property's currency (the report's `metadata.currencyCode`): the fake's properties are in euros.
  currency: { query: report("totalRevenue"), code: "EUR" },
  // runReport's `dateRanges` are the property's days, sent as the viewer's range.
  zone: {
    query: {
      type: "googleAnalytics.ga4",
      inputs: { dimension: "date", metrics: ["sessions"], profile: "2001", property: "1001" },
    },
    askedDays: (call) => {
      if (!RUN_REPORT.test(call.path)) return null;
      const [range] = JSON.parse(call.body).dateRanges as { startDate: string; endDate: string }[];
      return range ? { first: range.startDate, last: range.endDate } : null;
    },
  },
});
