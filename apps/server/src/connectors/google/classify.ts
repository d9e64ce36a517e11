import { type Classifier, record } from "../http/classify";
import { ProviderError, type ProviderErrorKind, parseRetryAfter } from "../http/errors";
import { untilNextHour, untilPacificMidnight } from "../http/google-reset";
import { text } from "../kit/inputs";

/** Search Console's advice when its short-term load quota is exceeded: wait 15 minutes. */
const SHORT_TERM_QUOTA_WAIT_MS = 15 * 60_000;

/** Until Google's hourly or daily (midnight Pacific) quotas refresh. */
const untilReset = (now: number, daily: boolean): number => (daily ? untilPacificMidnight(now) : untilNextHour(now));

/** One Google Ads error of a `GoogleAdsFailure`: its code group and value, message and quota wait. */
interface AdsError {
  group: string;
  code: string;
  message: string;
  retryDelayMs: number | null;
}

/** A protobuf Duration as JSON ("30s", "1.5s") in milliseconds; null when absent or unreadable. */
function durationMs(value: unknown): number | null {
  const match = /^(\d+(?:\.\d+)?)s$/.exec(text(value));
  return match ? Math.round(Number(match[1]) * 1000) : null;
}

/**
 * Google Ads puts its own codes in `details[].errors[]` (`GoogleAdsFailure`): `errorCode` is a one-key
 * object (`{authorizationError: "USER_PERMISSION_DENIED"}`, `{queryError: "UNRECOGNIZED_FIELD"}`), and
 * quota errors carry `details.quotaErrorDetails.retryDelay`.
 */
function adsErrors(details: unknown): AdsError[] {
  return (Array.isArray(details) ? details : []).flatMap((detail) => {
    const errors = record(detail)?.errors;
    return (Array.isArray(errors) ? errors : []).flatMap((entry) => {
      const code = record(record(entry)?.errorCode) ?? {};
      return Object.entries(code).map(([group, value]) => ({
        group,
        code: text(value),
        message: text(record(entry)?.message),
        retryDelayMs: durationMs(record(record(record(entry)?.details)?.quotaErrorDetails)?.retryDelay),
      }));
    });
  });
}

/**
 * Google Ads codes that are about one account, not the grant: the login cannot reach this customer (a
 * client reached without its manager as `login-customer-id`, access removed, a cancelled account).
 * Another account of the same login still works, so this is the widget's error.
 */
const ADS_ACCOUNT_CODES = new Set([
  "USER_PERMISSION_DENIED",
  "CUSTOMER_NOT_ENABLED",
  "CUSTOMER_NOT_FOUND",
  "CLIENT_CUSTOMER_ID_INVALID",
  "ACTION_NOT_PERMITTED",
  "ACCESS_DENIED_FOR_ACCOUNT_TYPE",
  "METRIC_ACCESS_DENIED",
  "INVALID_LOGIN_CUSTOMER_ID_SERVING_CUSTOMER_ID_COMBINATION",
]);

/** Google Ads' short-term throttles (as opposed to the developer token's operations per day). */
const ADS_RATE_CODES = new Set(["RESOURCE_TEMPORARILY_EXHAUSTED", "EXCESSIVE_SHORT_TERM_QUERY_RESOURCE_CONSUMPTION"]);

/**
 * Google APIs (Analytics Data and Admin, Search Console, Ads, Business Profile, Sheets): the body is
 * `{error: {code, message, status, details?, errors?}}` (google.rpc.Status, or the older v3 shape with
 * `errors[].reason`). RESOURCE_EXHAUSTED names its quota in the message: tokens per day or hour are a
 * quota until the reset, concurrent requests are a short rate limit (Airbyte waits 30 s for those).
 * Streaming methods (Google Ads' `searchStream`) answer a JSON array: the error is its element, and
 * one that fails after it started answers 200 with the error as the array's last element.
 */
export const classifyGoogle: Classifier = (provider, answer) => {
  const streamed = Array.isArray(answer.body)
    ? answer.body.find((element) => record(record(element)?.error) !== null)
    : undefined;
  const ok = answer.status >= 200 && answer.status < 300;
  if (ok && streamed === undefined) return null;
  const error = record(record(streamed ?? answer.body)?.error);
  const httpStatus = ok ? Number(error?.code) || 500 : answer.status;
  const status = text(error?.status);
  const ads = adsErrors(error?.details);
  // Google Ads' top message is generic ("Request contains an invalid argument."); its own errors say what.
  const message =
    ads.length > 0
      ? ads.map((entry) => `${entry.message || entry.code} (${entry.group} ${entry.code})`).join("; ")
      : text(error?.message) || `HTTP ${httpStatus}`;
  const reasons = [
    ...(Array.isArray(error?.errors) ? error.errors : []),
    ...(Array.isArray(error?.details) ? error.details : []),
  ]
    .map((entry) => text(record(entry)?.reason))
    .filter(Boolean);
  const retryAfterMs = parseRetryAfter(answer.headers.get("retry-after"), answer.now);
  const make = (kind: ProviderErrorKind, wait: number | null = retryAfterMs, retryable = true) =>
    new ProviderError(provider, kind, `${status || httpStatus}: ${message}`, {
      httpStatus,
      retryAfterMs: wait,
      retryable,
    });
  if (ads.length > 0) {
    // The server's developer token (GOOGLE_ADS_DEVELOPER_TOKEN) missing, wrong or not approved: the
    // operator's to fix; neither the user's grant nor the widget is at fault, and asking again cannot help.
    if (ads.some((entry) => entry.code.startsWith("DEVELOPER_TOKEN"))) return make("server", retryAfterMs, false);
    const quota = ads.find((entry) => entry.group === "quotaError");
    if (quota) {
      const wait = quota.retryDelayMs ?? retryAfterMs;
      if (ADS_RATE_CODES.has(quota.code)) return make("rate", wait ?? 30_000);
      return make("quota", wait ?? untilReset(answer.now, true));
    }
    if (ads.some((entry) => ADS_ACCOUNT_CODES.has(entry.code))) return make("input");
    if (ads.some((entry) => entry.group === "authenticationError" || entry.group === "authorizationError")) {
      return make("auth");
    }
  }

  const limited = reasons.find((reason) => /rateLimitExceeded|userRateLimitExceeded/i.test(reason));
  const daily =
    reasons.some((reason) => /dailyLimitExceeded/i.test(reason)) || /per day|daily|long[- ]term/i.test(message);
  const exhausted = reasons.find((reason) => /quotaExceeded|dailyLimitExceeded/i.test(reason));
  if (status === "RESOURCE_EXHAUSTED" || httpStatus === 429 || limited || exhausted) {
    if (daily) return make("quota", retryAfterMs ?? untilReset(answer.now, true));
    // Search Console says "quota exceeded" for every quota: its short-term load quota (10-minute chunks)
    // asks for 15 minutes' wait; only a message naming the long-term (daily) one waits for the reset.
    if (exhausted) {
      const wait = provider === "search-console" ? SHORT_TERM_QUOTA_WAIT_MS : untilReset(answer.now, true);
      return make("quota", retryAfterMs ?? wait);
    }
    if (/per hour|hourly/i.test(message)) return make("quota", retryAfterMs ?? untilReset(answer.now, false));
    if (/concurrent/i.test(message)) return make("rate", retryAfterMs ?? 30_000);
    return make("rate");
  }
  if (status === "UNAUTHENTICATED" || httpStatus === 401) return make("auth");
  // A grant without the scope we need is the grant's fault (connect again and allow it); no access to
  // one property or site is the widget's: another property of the same login still works.
  const scopeMissing = reasons.some((reason) =>
    /ACCESS_TOKEN_SCOPE_INSUFFICIENT|insufficientPermissions/i.test(reason),
  );
  if (scopeMissing) return make("auth");
  if (status === "PERMISSION_DENIED" || httpStatus === 403) return make("input");
  if (httpStatus >= 500 || ["UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED", "UNKNOWN"].includes(status)) {
    return make("server");
  }
  return make("input");
};
