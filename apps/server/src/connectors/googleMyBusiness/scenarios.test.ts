import { connectGoogle, googleError, revokeGoogleGrant } from "../../../test/connector-scenarios/google";
import { connectorScenarios } from "../../../test/connector-scenarios/kit";
import { googleFake } from "../google/fake";
import { businessProfileFake } from "./fake";

const PERFORMANCE = /^\/v1\/locations\/[^/:]+:fetchMultiDailyMetricsTimeSeries$/;
/** A Business Profile performance widget of Acme Bakeries' location; inputs sorted as the data path sorts them. */
const performance = (metric: string, profile = "8101") => ({
  type: "googleMyBusiness.performance",
  inputs: { metrics: [metric], profile, property: "7001" },
});
/** Faults for one location's calls only. */
const atLocation = (location: string, status: number, body: unknown, headers?: Record<string, string>) => ({
  status,
  body,
  pathIncludes: `/locations/${location}:`,
  ...(headers && { headers }),
});

connectorScenarios({
  title: "Google My Business",
  fakes: () => {
    const google = googleFake();
    return { google, profile: businessProfileFake(google.state) };
  },
  part: "profile",
  connect: (client) => connectGoogle(client, "googleMyBusiness"),
  // The limited query has a location of its own (8102): a throttled location waits out its Retry-After.
  queries: [
    performance("impressions", "8102"),
    performance("CALL_CLICKS"),
    performance("WEBSITE_CLICKS"),
    performance("BUSINESS_DIRECTION_REQUESTS"),
    performance("MESSAGING_CLICKS"),
    performance("BUSINESS_BOOKINGS"),
    performance("BUSINESS_FOOD_MENU_CLICKS"),
  ],
  upstream: (call) => PERFORMANCE.test(call.path),
  notices: {
    limited: "Google My Business is limiting requests",
    down: "Google My Business is not answering",
    reconnect: "Google My Business needs to be reconnected",
  },
  revoke: async (fakes, env, sourceId) => revokeGoogleGrant(fakes.parts.google, env, sourceId),
  // A short Retry-After is waited out and asked again; Google refuses all three attempts.
  limited: Array.from({ length: 3 }, () =>
    atLocation(
      "8102",
      429,
      googleError(
        429,
        "RESOURCE_EXHAUSTED",
        "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service 'businessprofileperformance.googleapis.com'.",
      ),
      { "retry-after": "1" },
    ),
  ),
  down: Array.from({ length: 3 }, () =>
    atLocation("8101", 503, googleError(503, "UNAVAILABLE", "The service is currently unavailable.")),
  ),
  malformed: [atLocation("8101", 200, '{"multiDailyMetricTimeSeries": [{"dailyMetricTimeSeries": [')],
  settled: {
    query: performance("BUSINESS_DIRECTION_REQUESTS", "8102"),
    range: { startDate: "2026-08-01", endDate: "2026-08-31" },
  },
  // Accounts and locations page (option lists); a location's daily series comes in one answer. Google
  // counts a location's days in its own zone and `dailyRange` is dates: the viewer's dates are asked as
  // they are. The history is 18 months, so the ranges are recent ones.
  zone: {
    query: {
      type: "googleMyBusiness.performance",
      inputs: { dimension: "date", metrics: ["CALL_CLICKS"], profile: "8101", property: "7001" },
    },
    askedDays: (call) => {
      if (!PERFORMANCE.test(call.path)) return null;
      const q = call.query;
      const date = (end: "start" | "end") => {
        const part = (name: string) => (q[`dailyRange.${end}_date.${name}`] ?? "").padStart(2, "0");
        return `${part("year")}-${part("month")}-${part("day")}`;
      };
      return q["dailyRange.start_date.year"] ? { first: date("start"), last: date("end") } : null;
    },
    recentOnly: true,
  },
});
