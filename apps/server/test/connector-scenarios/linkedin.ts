import type { FakeFault } from "../fakes/app";

/**
 * What the LinkedIn connectors' scenario declarations share (LinkedIn Ads, LinkedIn Social:
 * connectors/<key>/scenarios.test.ts): LinkedIn's error body, its daily quota, its outage, and the notices.
 */

/** LinkedIn's error body. */
const linkedinError = (status: number, message: string) => ({ status, message });

/**
 * LinkedIn limits only by the day: its 429 is a quota held until midnight UTC (so the limited query takes
 * an account or organization of its own).
 */
export const linkedinQuotaReached = (pathIncludes: string): FakeFault[] => [
  { status: 429, pathIncludes, body: linkedinError(429, "Resource level throttle APPLICATION DAY limit reached") },
];

/** LinkedIn down, as many as outlast the client's retries. */
export const linkedinDown = (pathIncludes: string, status = 503, message = "Service unavailable"): FakeFault[] =>
  Array.from({ length: 3 }, () => ({ status, pathIncludes, body: linkedinError(status, message) }));

/** The connector's notices: LinkedIn's limit is a quota, and says so. */
export const linkedinNotices = (title: string) => ({
  limited: `${title} quota reached`,
  down: `${title} is not answering`,
  reconnect: `${title} needs to be reconnected`,
});
