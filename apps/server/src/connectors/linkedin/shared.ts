import { shiftDay } from "@app/core";
import type { ProvidersConfig } from "../../infra/config";
import type { Classifier } from "../http/classify";
import { createProviderClient } from "../http/client";
import { ProviderError, type ProviderErrorKind, parseRetryAfter } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import type { OAuthAdapterFactory } from "../oauth/adapter";
import type { SourceHandle } from "../types";
import { linkedinAppOf, linkedinOAuth, missingLinkedInConfig } from "./oauth";

/**
 * What LinkedIn Ads and LinkedIn Social share (docs/connectors.md, "LinkedIn"): one REST client per
 * server process, LinkedIn's error body read into the product's kinds, the headers every versioned call
 * carries, and Rest.li 2.0 query syntax.
 */

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** Milliseconds to the next midnight UTC: LinkedIn's daily application and member limits reset then. */
export function untilMidnightUtc(now: number): number {
  const day = 86_400_000;
  return day - (now % day);
}

/**
 * LinkedIn's errors are `{status, serviceErrorCode?, code?, message}` with an honest HTTP status
 * (learn.microsoft.com/linkedin/shared/api-guide/concepts/error-handling):
 * - 401 (`serviceErrorCode` 65600 invalid, 65601 revoked, 65602 expired token …): the grant is gone, `auth`.
 * - 403 `ACCESS_DENIED`: the member has no role on this ad account or organization (any more). The grant
 *   still works for the others, so it is the widget's error (`input`) in words.
 * - 426 `NONEXISTENT_VERSION` (and 400 `VERSION_MISSING`): LINKEDIN_VERSION is too old (versions live
 *   about 12 months). The operator's to fix: `server`, never retried, saying which variable to raise.
 * - 429: a daily application or member limit. LinkedIn sends no rate headers and publishes the limits
 *   only in the developer portal; they reset at midnight UTC, so it is a `quota` until then.
 * - 5xx: `server`. Other 4xx: the request's values (`input`) in LinkedIn's words.
 */
export const classifyLinkedIn: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  const body = record(answer.body);
  const code = typeof body?.code === "string" ? body.code : "";
  const serviceCode = typeof body?.serviceErrorCode === "number" ? body.serviceErrorCode : null;
  const message = typeof body?.message === "string" ? body.message : `HTTP ${answer.status}`;
  const detail = [message, code, serviceCode !== null ? `serviceErrorCode ${serviceCode}` : ""]
    .filter(Boolean)
    .join(" · ");
  const make = (kind: ProviderErrorKind, options: { retryAfterMs?: number | null; retryable?: boolean } = {}) =>
    new ProviderError(provider, kind, detail, { httpStatus: answer.status, ...options });
  if (code === "NONEXISTENT_VERSION" || code === "VERSION_MISSING" || answer.status === 426) {
    return new ProviderError(
      provider,
      "server",
      `${detail} — LinkedIn no longer serves this API version: raise LINKEDIN_VERSION to a recent month (YYYYMM)`,
      { httpStatus: answer.status, retryable: false },
    );
  }
  if (answer.status === 401) return make("auth");
  if (answer.status === 403) {
    return new ProviderError(
      provider,
      "input",
      `LinkedIn refused access (${message}): this LinkedIn login has no role on the chosen account any more; choose another or ask its administrator for access`,
      { httpStatus: 403 },
    );
  }
  if (answer.status === 429) {
    return make("quota", {
      retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now) ?? untilMidnightUtc(answer.now),
    });
  }
  if (answer.status >= 500) return make("server");
  return make("input");
};

/** LinkedIn's REST API (api.linkedin.com): a few requests at once per account or organization. */
export const linkedinApi = perRuntime((runtime) =>
  createProviderClient({
    provider: "linkedin",
    baseUrl: runtime.providers.linkedin.apiUrl,
    classify: classifyLinkedIn,
    counters: runtime.counters,
    concurrency: 4,
  }),
);

/** The variables LinkedIn Ads' app lacks. */
export const missingLinkedInAds = (providers: ProvidersConfig) => missingLinkedInConfig(providers.linkedin.ads);
/** The variables LinkedIn Social's app (the Community Management API's own) lacks. */
export const missingLinkedInSocial = (providers: ProvidersConfig) => missingLinkedInConfig(providers.linkedin.social);

/**
 * The headers of every /rest call: the member's token (refreshed and written back when a refresh token
 * exists), `LinkedIn-Version` (YYYYMM) and `X-Restli-Protocol-Version: 2.0.0`, without which LinkedIn
 * reads the Rest.li query syntax below as protocol 1.0.
 */
export async function linkedinHeaders(source: SourceHandle): Promise<Record<string, string>> {
  const config = source.runtime.providers.linkedin;
  const token = await linkedinOAuth(
    config,
    linkedinAppOf(config, source.connector),
    source.runtime.counters,
  ).accessToken(source.credentials, (next) => source.saveCredentials({ ...source.credentials, ...next }), Date.now());
  return {
    authorization: `Bearer ${token}`,
    "linkedin-version": config.version,
    "x-restli-protocol-version": "2.0.0",
  };
}

/**
 * A Rest.li 2.0 query string, written out by hand: structure characters — `(`, `)`, `:` and `,` in
 * `List(…)` and records — must reach LinkedIn as they are, while values inside them are percent-encoded
 * (`urn%3Ali%3AsponsoredAccount%3A123`). URLSearchParams would encode the structure too, so values here
 * are already encoded where they need it (`encoded`, `list`) and are sent verbatim.
 */
export function restliQuery(params: Record<string, string | undefined>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

/** A plain value inside a Rest.li query (a URN as a top-level parameter or a List element). */
export const encoded = (value: string) => encodeURIComponent(value);

/** `List(a,b)` of URNs, each encoded. */
export const list = (values: readonly string[]) => `List(${values.map(encoded).join(",")})`;

/** A day as a Rest.li date record: `(year:2026,month:10,day:1)`. */
export function restliDate(day: string): string {
  const [year, month, date] = day.split("-").map(Number);
  return `(year:${year},month:${month},day:${date})`;
}

/** Epoch milliseconds of a day's UTC midnight. */
export const dayStartMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * A `timeIntervals` record for the organization statistics: days as UTC midnights, the end exclusive
 * (the day after the last), daily granularity.
 */
export function dailyIntervals(startDay: string, endDay: string): string {
  return `(timeRange:(start:${dayStartMs(startDay)},end:${dayStartMs(shiftDay(endDay, 1))}),timeGranularityType:DAY)`;
}

/** The UTC day of an epoch-milliseconds instant. */
export const dayOfMs = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The numeric id at the end of a URN (`urn:li:sponsoredCampaign:123` → "123"). */
export const urnId = (urn: string) => urn.slice(urn.lastIndexOf(":") + 1);

/** The OAuth adapters that connect LinkedIn Ads and LinkedIn Social (`Connector.oauth`): each with its own app. */
export const linkedinAdsOAuthAdapter: OAuthAdapterFactory = (providers, counters) =>
  linkedinOAuth(providers.linkedin, providers.linkedin.ads, counters);
export const linkedinSocialOAuthAdapter: OAuthAdapterFactory = (providers, counters) =>
  linkedinOAuth(providers.linkedin, providers.linkedin.social, counters);
