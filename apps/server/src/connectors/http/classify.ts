import { ProviderError, type ProviderErrorKind, parseRetryAfter } from "./errors";

/** A provider's answer as the classifiers see it: the body already parsed when it was JSON. */
export interface ProviderAnswer {
  status: number;
  headers: Headers;
  body: unknown;
  now: number;
}

/** Reads an answer: null when it is a success, otherwise the failure in one of the product's kinds. */
export type Classifier = (provider: string, answer: ProviderAnswer) => ProviderError | null;

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** The kind an HTTP status alone suggests, for providers that say nothing more. */
export function kindOfStatus(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate";
  if (status >= 500) return "server";
  return "input";
}

/** Any provider: 2xx is a success, anything else is classified by its status and Retry-After. */
export const classifyByStatus: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  return new ProviderError(provider, kindOfStatus(answer.status), `HTTP ${answer.status}`, {
    httpStatus: answer.status,
    retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now),
  });
};

const HOUR_MS = 3_600_000;

/** Milliseconds until the next full hour, or until the next midnight in Los Angeles (GA4's daily reset is at midnight Pacific). */
function untilReset(now: number, daily: boolean): number {
  if (!daily) return HOUR_MS - (now % HOUR_MS);
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: "America/Los_Angeles",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    hourCycle: "h23",
  }).formatToParts(new Date(now));
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const elapsed = (get("hour") * 3600 + get("minute") * 60 + get("second")) * 1000;
  return 24 * HOUR_MS - elapsed;
}

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
  const exhausted = reasons.find((reason) => /quotaExceeded|dailyLimitExceeded/i.test(reason));
  if (status === "RESOURCE_EXHAUSTED" || httpStatus === 429 || limited || exhausted) {
    if (/per day|daily/i.test(message) || exhausted) return make("quota", retryAfterMs ?? untilReset(answer.now, true));
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

/** Meta's throttling codes (Graph API rate limiting): app, user, page, custom and Business Use Case limits. */
const META_RATE_CODES = new Set([4, 17, 32, 613, ...Array.from({ length: 15 }, (_, index) => 80000 + index)]);
/** An invalid or expired token (190, its subcodes say why), an invalid session (102), a missing permission (10, 200–299). */
const META_AUTH_CODES = new Set([10, 102, 190]);

/**
 * The longest `estimated_time_to_regain_access` (minutes) in Meta's usage headers, in milliseconds; null
 * when none says to wait. `X-Business-Use-Case-Usage` is `{<id>: [{type, call_count, total_cputime,
 * total_time, estimated_time_to_regain_access}]}`; `X-Ad-Account-Usage` carries `reset_time_duration` (s).
 */
export function metaRegainMs(headers: Headers): number | null {
  let wait: number | null = null;
  const business = headers.get("x-business-use-case-usage");
  if (business) {
    try {
      const usage = record(JSON.parse(business)) ?? {};
      for (const entries of Object.values(usage)) {
        for (const entry of Array.isArray(entries) ? entries : []) {
          const minutes = Number(record(entry)?.estimated_time_to_regain_access ?? 0);
          if (minutes > 0) wait = Math.max(wait ?? 0, minutes * 60_000);
        }
      }
    } catch {
      // An unreadable header says nothing.
    }
  }
  const account = headers.get("x-ad-account-usage");
  if (account) {
    try {
      const seconds = Number(record(JSON.parse(account))?.reset_time_duration ?? 0);
      const percent = Number(record(JSON.parse(account))?.acc_id_util_pct ?? 0);
      if (seconds > 0 && percent >= 100) wait = Math.max(wait ?? 0, seconds * 1000);
    } catch {
      // As above.
    }
  }
  return wait;
}

/**
 * Meta's Graph API: failures are `{error: {message, type, code, error_subcode, is_transient}}` with 400
 * (or 200 on batch answers); the throttling codes 4, 17, 32, 613 and 80000–80014 come with usage headers
 * that say how long to wait. Code 190 is an invalid or expired token.
 */
export const classifyMeta: Classifier = (provider, answer) => {
  const error = record(record(answer.body)?.error);
  if (!error && answer.status >= 200 && answer.status < 300) return null;
  const code = Number(error?.code ?? Number.NaN);
  const message = text(error?.message) || `HTTP ${answer.status}`;
  const detail = `code ${Number.isNaN(code) ? "?" : code}${error?.error_subcode ? `/${error.error_subcode}` : ""}: ${message}`;
  const make = (kind: ProviderErrorKind, retryAfterMs: number | null = null) =>
    new ProviderError(provider, kind, detail, { httpStatus: answer.status, retryAfterMs });
  if (META_RATE_CODES.has(code)) return make("rate", metaRegainMs(answer.headers) ?? 60_000);
  // Not the type: Meta calls most errors OAuthException, an invalid parameter (#100) included.
  if (META_AUTH_CODES.has(code) || (code >= 200 && code <= 299)) return make("auth");
  if (error?.is_transient === true || code === 1 || code === 2 || answer.status >= 500) return make("server");
  if (!error) return classifyByStatus(provider, answer);
  return make("input");
};
