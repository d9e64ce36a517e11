import { text } from "../kit/inputs";
import { ProviderError, type ProviderErrorKind, parseRetryAfter } from "./errors";
import { untilNextHour, untilPacificMidnight } from "./google-reset";

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

/** A share of a Meta limit (percent) from which a key is held before Meta throttles it at 100. */
export const META_HOLD_PERCENT = 95;
/**
 * How long a key near its limit is held when Meta states no time: X-App-Usage never does, and a BUC
 * entry at 95 % may still say 0 minutes. Meta's windows roll over an hour, so usage falls gradually;
 * a few minutes lets it fall without leaving widgets on stored numbers for long.
 */
export const META_DEFAULT_HOLD_MS = 5 * 60_000;

/** What a hold is on: the whole app, the request's own key (ad account, Page), or a Business Use Case id. */
export type MetaHoldScope = "app" | "key" | `business:${string}`;

const parseHeader = (headers: Headers, name: string): unknown => {
  const raw = headers.get(name);
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    // An unreadable header says nothing.
    return null;
  }
};

const percentOf = (entry: Record<string, unknown> | null, fields: readonly string[]) =>
  Math.max(0, ...fields.map((field) => Number(entry?.[field] ?? 0)).filter(Number.isFinite));

/**
 * Meta's usage headers on any answer, successful ones included, as holds: `X-App-Usage`
 * (`{call_count, total_cputime, total_time}`, percent of the app's rolling hour), `X-Business-Use-Case-Usage`
 * (`{<id>: [{type, call_count, total_cputime, total_time, estimated_time_to_regain_access}]}`, minutes)
 * and `X-Ad-Account-Usage` (`{acc_id_util_pct, reset_time_duration}`, seconds). A share at or above
 * META_HOLD_PERCENT, or a regain time above 0, holds the scope for the stated time (or the default).
 * `businesses` lists every BUC id the answer named, so the caller can map its key to them.
 */
export function metaUsageHolds(headers: Headers): {
  holds: { scope: MetaHoldScope; ms: number }[];
  businesses: string[];
} {
  const holds: { scope: MetaHoldScope; ms: number }[] = [];
  const shares = ["call_count", "total_cputime", "total_time"] as const;
  const app = record(parseHeader(headers, "x-app-usage"));
  if (app && percentOf(app, shares) >= META_HOLD_PERCENT) holds.push({ scope: "app", ms: META_DEFAULT_HOLD_MS });

  const business = record(parseHeader(headers, "x-business-use-case-usage")) ?? {};
  for (const [id, entries] of Object.entries(business)) {
    for (const entry of Array.isArray(entries) ? entries.map(record) : []) {
      const minutes = Number(entry?.estimated_time_to_regain_access ?? 0);
      if (minutes > 0 || percentOf(entry, shares) >= META_HOLD_PERCENT) {
        const ms = minutes > 0 ? minutes * 60_000 : META_DEFAULT_HOLD_MS;
        // The business id for other keys of the same business, the request's key for other processes
        // (they have not learnt which business the key belongs to).
        holds.push({ scope: `business:${id}`, ms }, { scope: "key", ms });
      }
    }
  }

  const account = record(parseHeader(headers, "x-ad-account-usage"));
  if (account && percentOf(account, ["acc_id_util_pct"]) >= META_HOLD_PERCENT) {
    const seconds = Number(account.reset_time_duration ?? 0);
    holds.push({ scope: "key", ms: seconds > 0 ? seconds * 1000 : META_DEFAULT_HOLD_MS });
  }
  return { holds, businesses: Object.keys(business) };
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

/** The provider's own sentence in a JSON error body (`message`, `error`, `detail` or `errors[0].message`). */
function bodyMessage(body: unknown): string {
  const object = record(body);
  if (!object) return typeof body === "string" ? body.slice(0, 200) : "";
  const first = Array.isArray(object.errors) ? record(object.errors[0]) : null;
  return text(object.message) || text(first?.message) || text(object.detail) || text(object.error);
}

/**
 * Providers that say what went wrong in a JSON body beside an honest HTTP status (SE Ranking's
 * `{message}`, Salesflare's hapi `{statusCode, error, message}`): the kind by status, the detail in the
 * provider's own words (shown on the sources form when a typed key is refused).
 */
export const classifyByStatusWithMessage: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  const message = bodyMessage(answer.body);
  return new ProviderError(provider, kindOfStatus(answer.status), message || `HTTP ${answer.status}`, {
    httpStatus: answer.status,
    retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now),
  });
};

/**
 * SEMrush's Standard API (v3) answers HTTP 200 with a line of text for every failure:
 * `ERROR 50 :: NOTHING FOUND`, `ERROR 120 :: WRONG KEY - ID PAIR`, `ERROR 132 :: API UNITS BALANCE IS ZERO`
 * (developer.semrush.com/api/v3/analytics/basic-docs, "Errors"; api/basics/api-units-balance). The code
 * decides the kind: the key (70, 120–122) or its API access (130) is the login's fault; 131 is the
 * 10-requests-a-second limit; units used up (132) or the account's total limit (134) last until more are
 * bought; a database (133) or report (135) outside the plan, a bad query (30–49) and nothing found for
 * the domain (50) are the widget's settings.
 */
const SEMRUSH_AUTH_CODES = new Set([10, 20, 70, 120, 121, 122, 130]);
const SEMRUSH_QUOTA_CODES = new Set([132, 134]);

export const classifySemrush: Classifier = (provider, answer) => {
  const body = typeof answer.body === "string" ? answer.body.trim() : "";
  const match = /^ERROR\s+(\d+)\s*::\s*(.*)$/im.exec(body);
  if (!match) return classifyByStatus(provider, answer);
  const code = Number(match[1]);
  const detail = `ERROR ${code} :: ${match[2].trim()}`;
  const make = (kind: ProviderErrorKind, options: { retryAfterMs?: number; field?: string } = {}) =>
    new ProviderError(provider, kind, detail, { httpStatus: answer.status, ...options });
  if (SEMRUSH_AUTH_CODES.has(code)) return make("auth");
  if (code === 131) return make("rate", { retryAfterMs: 1000 });
  // No reset to wait for: units come back when someone buys them. An hour keeps us from asking in a loop.
  if (SEMRUSH_QUOTA_CODES.has(code)) return make("quota", { retryAfterMs: HOUR_MS });
  if (code === 133) return make("input", { field: "database" });
  if (answer.status >= 500) return make("server");
  return make("input");
};

/**
 * WordPress REST answers (WooCommerce's `wc/v3` and `wc-analytics` routes): errors are `WP_Error`s as
 * `{code, message, data: {status}}` (developer.wordpress.org/rest-api/using-the-rest-api/global-parameters,
 * "Errors"). A refused consumer key (`woocommerce_rest_authentication_error`) or a key without read
 * access (`woocommerce_rest_cannot_view`, 401 or 403) is the login; a redirect is never followed (the
 * site is user-supplied: the next hop could be anywhere), so it is the site field's error naming where it
 * points; `rest_no_route` (404) means the route is absent on this site (no WooCommerce, or no Analytics).
 */
const WOOCOMMERCE_AUTH_CODES = new Set([
  "woocommerce_rest_authentication_error",
  "woocommerce_rest_cannot_view",
  "rest_forbidden",
  "rest_not_logged_in",
]);

export const classifyWooCommerce: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  if (answer.status >= 300 && answer.status < 400) {
    const location = answer.headers.get("location");
    return new ProviderError(
      provider,
      "input",
      location
        ? `the site redirects to ${location} (HTTP ${answer.status}); enter the address it redirects to`
        : `the site answered a redirect (HTTP ${answer.status}) without saying where to`,
      { httpStatus: answer.status, field: "site", retryable: false },
    );
  }
  const body = record(answer.body);
  const code = text(body?.code);
  if (!code) return classifyByStatusWithMessage(provider, answer);
  const detail = `${text(body?.message) || `HTTP ${answer.status}`} (${code})`;
  const make = (kind: ProviderErrorKind) =>
    new ProviderError(provider, kind, detail, {
      httpStatus: answer.status,
      retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now),
    });
  if (WOOCOMMERCE_AUTH_CODES.has(code) || answer.status === 401 || answer.status === 403) return make("auth");
  return make(kindOfStatus(answer.status));
};

/** True for WordPress' "no such route" answer: the route's plugin (WooCommerce, its Analytics) is absent. */
export const isWordPressNoRoute = (error: ProviderError) =>
  error.httpStatus === 404 && error.reason.endsWith("(rest_no_route)");

/**
 * Ahrefs API v3: failures are `{error: "<sentence>"}` with an honest status (docs.ahrefs.com OpenAPI,
 * every operation declares 400, 401, 403, 429 and 500). 401 is a missing, wrong or expired key. 403 is
 * either the API-unit allowance (workspace or per-key monthly cap) used up, which is a quota until the
 * billing month resets, or a plan without API access for the key, which only another key fixes. 429 is
 * the 60-a-minute limit or Ahrefs' load throttling, without Retry-After.
 */
export const classifyAhrefs: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  const body = record(answer.body);
  const message =
    text(body?.error) || (typeof answer.body === "string" ? answer.body.slice(0, 200) : "") || `HTTP ${answer.status}`;
  const make = (kind: ProviderErrorKind, retryAfterMs: number | null = null) =>
    new ProviderError(provider, kind, message, {
      httpStatus: answer.status,
      retryAfterMs: retryAfterMs ?? parseRetryAfter(answer.headers.get("retry-after"), answer.now),
    });
  if (answer.status === 403 && /\bunits?\b|limit|usage|allowance|quota/i.test(message)) {
    // A monthly allowance: Ahrefs says nothing of when it comes back (top-ups are possible), so it is
    // asked again after an hour, not before.
    return make("quota", HOUR_MS);
  }
  return make(kindOfStatus(answer.status));
};

/**
 * JSON:API errors (Klaviyo): `{errors: [{id, status, code, title, detail, source}]}`
 * (developers.klaviyo.com/en/docs/rate_limits_and_error_handling). `not_authenticated` and
 * `authentication_failed` (401) are a wrong or revoked private key, `permission_denied` (403) a key
 * without the scope; `throttled` (429) comes with Retry-After in seconds.
 */
export const classifyJsonApi: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  const errors = record(answer.body)?.errors;
  const first = Array.isArray(errors) ? record(errors[0]) : null;
  if (!first) return classifyByStatusWithMessage(provider, answer);
  const code = text(first.code);
  const words = [text(first.title), text(first.detail)].filter(
    (part, index, all) => part && all.indexOf(part) === index,
  );
  const detail = `${words.join(" ") || `HTTP ${answer.status}`}${code ? ` (${code})` : ""}`;
  const pointer = text(record(first.source)?.pointer);
  return new ProviderError(provider, kindOfStatus(answer.status), detail, {
    httpStatus: answer.status,
    retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now),
    field: pointer.endsWith("/conversion_metric_id") ? "conversionMetric" : null,
  });
};

/**
 * Serpstat's API v4 is JSON-RPC 2.0: a failure is `{id, error: {code, message}}`, mostly with HTTP 200
 * (developer.serpstat.com, "API protocol"). The standard codes say little (-32602 covers a bad domain
 * and a bad token alike), so the message decides: a token refused is `auth`; requests per second over
 * the plan's limit (1 a second on the lowest plan) are `rate`; credits (API lines) used up are `quota`
 * until more are bought; an internal error is `server`; anything else is the widget's settings.
 */
export const classifySerpstat: Classifier = (provider, answer) => {
  const error = record(record(answer.body)?.error);
  if (!error) return classifyByStatus(provider, answer);
  const code = Number(error.code ?? Number.NaN);
  const message = text(error.message) || `HTTP ${answer.status}`;
  const detail = Number.isNaN(code) ? message : `${message} (code ${code})`;
  const make = (kind: ProviderErrorKind, retryAfterMs: number | null = null) =>
    new ProviderError(provider, kind, detail, { httpStatus: answer.status, retryAfterMs });
  if (answer.status === 401 || answer.status === 403 || /token|unauthori[sz]ed|authenticat/i.test(message)) {
    return make("auth");
  }
  if (answer.status === 429 || /too many|per second|rate limit/i.test(message)) return make("rate", 1000);
  if (/credit|lines? limit|limit of (api )?(lines|queries|requests)|not enough/i.test(message))
    return make("quota", HOUR_MS);
  if (answer.status >= 500 || code === -32603) return make("server");
  return make("input");
};
