import { describe, expect, it } from "vitest";
import {
  classifyAhrefs,
  classifyByStatus,
  classifyByStatusWithMessage,
  classifyGoogle,
  classifyMeta,
  classifySemrush,
  classifySerpstat,
  META_DEFAULT_HOLD_MS,
  metaRegainMs,
  metaUsageHolds,
} from "./classify";
import { parseRetryAfter } from "./errors";
import { isPublicAddress } from "./outbound-guard";

// 2026-11-25 10:30:00 UTC = 02:30 in Los Angeles: GA4's daily quota resets in 21.5 hours.
const NOW = Date.UTC(2026, 10, 25, 10, 30, 0);

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers(headers),
  body,
  now: NOW,
});

const google = (code: number, status: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { code, status, message, ...extra },
});

/** A Google Ads failure as the REST API answers it (google.rpc.Status with a GoogleAdsFailure detail). */
const ads = (
  code: number,
  status: string,
  errorCode: Record<string, string>,
  message: string,
  details?: Record<string, unknown>,
) =>
  google(code, status, "Request contains an invalid argument.", {
    details: [
      {
        "@type": "type.googleapis.com/google.ads.googleads.v24.errors.GoogleAdsFailure",
        errors: [{ errorCode, message, ...(details && { details }) }],
        requestId: "fake-request",
      },
    ],
  });

describe("Google answers", () => {
  it.each([
    ["a success", answer(200, { rows: [] }), null, null],
    [
      "an expired or revoked token",
      answer(401, google(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.")),
      "auth",
      null,
    ],
    [
      "no access to this property: the widget's, not the grant's",
      answer(403, google(403, "PERMISSION_DENIED", "User does not have sufficient permissions for this property.")),
      "input",
      null,
    ],
    [
      "a grant without the needed scope: connect again",
      answer(
        403,
        google(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.", {
          details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT" }],
        }),
      ),
      "auth",
      null,
    ],
    [
      "GA4 tokens per day used up: until midnight in California",
      answer(429, google(429, "RESOURCE_EXHAUSTED", "Exhausted property tokens per day quota.")),
      "quota",
      21.5 * 3_600_000,
    ],
    [
      "GA4 tokens per hour used up: until the next hour",
      answer(429, google(429, "RESOURCE_EXHAUSTED", "Exhausted property tokens per hour quota.")),
      "quota",
      30 * 60_000,
    ],
    [
      "GA4 concurrent requests: 30 s",
      answer(429, google(429, "RESOURCE_EXHAUSTED", "Exhausted concurrent requests quota.")),
      "rate",
      30_000,
    ],
    [
      "a plain 429 with Retry-After",
      answer(429, google(429, "RESOURCE_EXHAUSTED", "Slow down."), { "retry-after": "7" }),
      "rate",
      7000,
    ],
    [
      "Search Console's older shape: rateLimitExceeded",
      answer(403, google(403, "", "Rate Limit Exceeded", { errors: [{ reason: "rateLimitExceeded" }] })),
      "rate",
      null,
    ],
    [
      "the older shape: quotaExceeded from another API than Search Console (until the daily reset)",
      answer(403, google(403, "", "Quota Exceeded", { errors: [{ reason: "quotaExceeded" }] })),
      "quota",
      21.5 * 3_600_000,
    ],
    [
      "Search Console's long-term load quota: until the daily reset",
      answer(403, google(403, "", "Long term load quota exceeded", { errors: [{ reason: "quotaExceeded" }] })),
      "quota",
      21.5 * 3_600_000,
    ],
    [
      "dailyLimitExceeded: until the daily reset",
      answer(403, google(403, "", "Daily Limit Exceeded", { errors: [{ reason: "dailyLimitExceeded" }] })),
      "quota",
      21.5 * 3_600_000,
    ],
    [
      "an unknown metric",
      answer(400, google(400, "INVALID_ARGUMENT", "Field sessionz is not a valid metric.")),
      "input",
      null,
    ],
    ["an outage", answer(503, google(503, "UNAVAILABLE", "The service is currently unavailable.")), "server", null],
    ["a 502 from a proxy without a body", answer(502, "<html>Bad Gateway</html>"), "server", null],
    [
      "Google Ads: a revoked grant",
      answer(
        401,
        google(401, "UNAUTHENTICATED", "Request is missing required authentication credential.", {
          details: [{ errors: [{ errorCode: { authenticationError: "OAUTH_TOKEN_REVOKED" } }] }],
        }),
      ),
      "auth",
      null,
    ],
    [
      "Google Ads: operations per day used up",
      answer(
        429,
        google(429, "RESOURCE_EXHAUSTED", "Too many requests.", {
          details: [{ errors: [{ errorCode: { quotaError: "RESOURCE_EXHAUSTED" } }] }],
        }),
      ),
      "quota",
      21.5 * 3_600_000,
    ],
    [
      "Google Ads: a client reached without its manager as login-customer-id is the widget's, not the grant's",
      answer(403, [
        ads(
          403,
          "PERMISSION_DENIED",
          { authorizationError: "USER_PERMISSION_DENIED" },
          "User doesn't have permission to access customer.",
        ),
      ]),
      "input",
      null,
    ],
    [
      "Google Ads: a field GAQL does not know (searchStream answers an array)",
      answer(400, [
        ads(
          400,
          "INVALID_ARGUMENT",
          { queryError: "UNRECOGNIZED_FIELD" },
          "Unrecognized field in the query: 'metrics.clickz'.",
        ),
      ]),
      "input",
      null,
    ],
    [
      "Google Ads: the server's developer token missing is the operator's, never retried",
      answer(400, [
        ads(
          400,
          "INVALID_ARGUMENT",
          { requestError: "DEVELOPER_TOKEN_PARAMETER_MISSING" },
          "The developer token is missing.",
        ),
      ]),
      "server",
      null,
    ],
    [
      "Google Ads: a short-term throttle waits the retryDelay it names",
      answer(
        429,
        ads(429, "RESOURCE_EXHAUSTED", { quotaError: "RESOURCE_TEMPORARILY_EXHAUSTED" }, "Too many requests.", {
          quotaErrorDetails: { rateScope: "ACCOUNT", rateName: "Requests per account", retryDelay: "12s" },
        }),
      ),
      "rate",
      12_000,
    ],
    [
      "Google Ads: operations per day with a retryDelay",
      answer(
        429,
        ads(429, "RESOURCE_EXHAUSTED", { quotaError: "RESOURCE_EXHAUSTED" }, "Too many requests.", {
          quotaErrorDetails: { rateScope: "DEVELOPER", rateName: "Number of operations", retryDelay: "3600s" },
        }),
      ),
      "quota",
      3_600_000,
    ],
    [
      "Google Ads: a stream that broke off after it started (200, the error last in the array)",
      answer(200, [
        { results: [], fieldMask: "campaign.id" },
        google(503, "UNAVAILABLE", "The service is currently unavailable."),
      ]),
      "server",
      null,
    ],
  ])("%s", (_label, given, kind, retryAfterMs) => {
    const error = classifyGoogle("ga4", given);
    expect(error?.kind ?? null).toBe(kind);
    if (error) expect(error.retryAfterMs).toBe(retryAfterMs);
  });

  it("Search Console's 'quota exceeded' is its short-term load quota (wait 15 minutes) unless it names the long-term one", () => {
    const exceeded = (message: string) =>
      classifyGoogle(
        "search-console",
        answer(403, google(403, "", message, { errors: [{ reason: "quotaExceeded" }] })),
      );
    expect(exceeded("Quota Exceeded")).toMatchObject({ kind: "quota", retryAfterMs: 15 * 60_000 });
    expect(exceeded("Long term load quota exceeded")).toMatchObject({ kind: "quota", retryAfterMs: 21.5 * 3_600_000 });
  });

  it("Google Ads: the developer token's failure is not retried, and the Ads error's own words are kept", () => {
    const error = classifyGoogle(
      "google-ads",
      answer(401, [
        ads(
          401,
          "UNAUTHENTICATED",
          { authenticationError: "DEVELOPER_TOKEN_INVALID" },
          "The developer token is not valid.",
        ),
      ]),
    );
    expect(error?.kind).toBe("server");
    expect(error?.transient).toBe(false);
    expect(error?.reason).toBe(
      "UNAUTHENTICATED: The developer token is not valid. (authenticationError DEVELOPER_TOKEN_INVALID)",
    );
  });
});

const meta = (code: number, message: string, extra: Record<string, unknown> = {}) => ({
  error: { message, type: "OAuthException", code, fbtrace_id: "A1", ...extra },
});

describe("Meta answers", () => {
  const buc = JSON.stringify({
    "1234": [
      { type: "ads_insights", call_count: 100, total_cputime: 40, total_time: 50, estimated_time_to_regain_access: 12 },
    ],
  });
  it.each([
    ["a success", answer(200, { data: [] }), null, null],
    [
      "an expired token (190)",
      answer(400, meta(190, "Error validating access token", { error_subcode: 463 })),
      "auth",
      null,
    ],
    ["a missing permission (200)", answer(403, meta(200, "Requires ads_read permission")), "auth", null],
    [
      "an invalid parameter (100) is the form's, not the grant's",
      answer(400, meta(100, "(#100) Invalid parameter")),
      "input",
      null,
    ],
    ["application request limit (4)", answer(400, meta(4, "Application request limit reached")), "rate", 60_000],
    ["user request limit (17)", answer(400, meta(17, "User request limit reached")), "rate", 60_000],
    [
      "calls to this API over its limit (613) with the usage header's regain time",
      answer(400, meta(613, "Calls to this api have exceeded the rate limit."), { "x-business-use-case-usage": buc }),
      "rate",
      12 * 60_000,
    ],
    ["calls over the limit (613) without a usage header", answer(400, meta(613, "Calls exceeded")), "rate", 60_000],
    [
      "ads insights throttled (80004) with the usage header's regain time",
      answer(400, meta(80004, "There have been too many calls to this ad-account."), {
        "x-business-use-case-usage": buc,
      }),
      "rate",
      12 * 60_000,
    ],
    [
      "a transient error",
      answer(500, meta(2, "Service temporarily unavailable", { is_transient: true })),
      "server",
      null,
    ],
    ["an error inside a 200 (batch answers)", answer(200, meta(190, "Session has expired")), "auth", null],
    ["a 503 without a body", answer(503, null), "server", null],
  ])("%s", (_label, given, kind, retryAfterMs) => {
    const error = classifyMeta("meta", given);
    expect(error?.kind ?? null).toBe(kind);
    if (error) expect(error.retryAfterMs).toBe(retryAfterMs);
  });

  it("reads the ad account's reset time only when the account is at its limit", () => {
    const full = new Headers({
      "x-ad-account-usage": JSON.stringify({ acc_id_util_pct: 100, reset_time_duration: 90 }),
    });
    const half = new Headers({
      "x-ad-account-usage": JSON.stringify({ acc_id_util_pct: 50, reset_time_duration: 90 }),
    });
    expect(metaRegainMs(full)).toBe(90_000);
    expect(metaRegainMs(half)).toBeNull();
    expect(metaRegainMs(new Headers({ "x-business-use-case-usage": "not json" }))).toBeNull();
  });

  it("usage on a success: at 95 % or more, or with a regain time, the scope is held for the stated time", () => {
    const usage = (headers: Record<string, unknown>) =>
      metaUsageHolds(
        new Headers(Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, JSON.stringify(value)]))),
      );
    // The app's rolling hour (no time stated): the default hold.
    expect(usage({ "x-app-usage": { call_count: 12, total_cputime: 96, total_time: 40 } })).toEqual({
      holds: [{ scope: "app", ms: META_DEFAULT_HOLD_MS }],
      businesses: [],
    });
    expect(usage({ "x-app-usage": { call_count: 94, total_cputime: 10, total_time: 10 } }).holds).toEqual([]);
    // A business at its limit: Meta's minutes, on the business and on the request's own key.
    expect(
      usage({
        "x-business-use-case-usage": {
          "77": [
            { type: "pages", call_count: 100, total_cputime: 0, total_time: 0, estimated_time_to_regain_access: 3 },
          ],
          "78": [{ type: "ads_management", call_count: 20, total_cputime: 5, total_time: 5 }],
        },
      }),
    ).toEqual({
      holds: [
        { scope: "business:77", ms: 180_000 },
        { scope: "key", ms: 180_000 },
      ],
      businesses: ["77", "78"],
    });
    // A regain time alone holds too; at 97 % without one, the default.
    expect(
      usage({ "x-business-use-case-usage": { "5": [{ call_count: 10, estimated_time_to_regain_access: 1 }] } }).holds,
    ).toEqual([
      { scope: "business:5", ms: 60_000 },
      { scope: "key", ms: 60_000 },
    ]);
    expect(usage({ "x-business-use-case-usage": { "5": [{ total_time: 97 }] } }).holds[0]).toEqual({
      scope: "business:5",
      ms: META_DEFAULT_HOLD_MS,
    });
    // The ad account: its reset time in seconds.
    expect(usage({ "x-ad-account-usage": { acc_id_util_pct: 99.5, reset_time_duration: 120 } }).holds).toEqual([
      { scope: "key", ms: 120_000 },
    ]);
    expect(usage({ "x-ad-account-usage": { acc_id_util_pct: 60, reset_time_duration: 120 } }).holds).toEqual([]);
    expect(metaUsageHolds(new Headers({ "x-app-usage": "not json" }))).toEqual({ holds: [], businesses: [] });
  });
});

describe("any provider: by status", () => {
  it.each([
    [200, null],
    [204, null],
    [400, "input"],
    [401, "auth"],
    [403, "auth"],
    [404, "input"],
    [429, "rate"],
    [500, "server"],
    [503, "server"],
  ])("%i → %s", (status, kind) => {
    expect(classifyByStatus("x", answer(status, null))?.kind ?? null).toBe(kind);
  });
});

describe("a status and the provider's sentence (SE Ranking, Salesflare)", () => {
  it.each([
    ["a success", answer(200, [{ id: 1 }]), null, null],
    ["SE Ranking: an unknown key", answer(401, { message: "Invalid token" }), "auth", "Invalid token"],
    ["SE Ranking: a project of another account", answer(404, { message: "Site not found" }), "input", "Site not found"],
    ["SE Ranking: over 5 a second", answer(429, { message: "Too many requests" }), "rate", "Too many requests"],
    [
      "Salesflare (hapi): a wrong key",
      answer(401, { statusCode: 401, error: "Unauthorized", message: "Bad token" }),
      "auth",
      "Bad token",
    ],
    [
      "Salesflare (hapi): a bad filter",
      answer(400, { statusCode: 400, error: "Bad Request", message: '"pipeline" must be a number' }),
      "input",
      '"pipeline" must be a number',
    ],
    ["an outage in HTML", answer(502, "<html>Bad Gateway</html>"), "server", "<html>Bad Gateway</html>"],
    ["no body at all", answer(503, null), "server", "HTTP 503"],
  ])("%s", (_label, given, kind, reason) => {
    const error = classifyByStatusWithMessage("x", given);
    expect(error?.kind ?? null).toBe(kind);
    expect(error?.reason ?? null).toBe(reason);
  });

  it("keeps the provider's Retry-After", () => {
    const error = classifyByStatusWithMessage("x", answer(429, { message: "Slow down" }, { "retry-after": "2" }));
    expect(error?.retryAfterMs).toBe(2000);
  });
});

describe("Retry-After", () => {
  it.each([
    ["120", 120_000],
    [" 0 ", 0],
    [new Date(NOW + 90_000).toUTCString(), 90_000],
    [new Date(NOW - 90_000).toUTCString(), 0],
    ["soon", null],
    ["", null],
    [undefined, null],
  ])("%s → %s ms", (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });
});

describe("public addresses (outbound requests to user-supplied hosts)", () => {
  it.each([
    ["8.8.8.8", true],
    ["142.250.185.78", true],
    ["127.0.0.1", false],
    ["10.1.2.3", false],
    ["172.16.0.1", false],
    ["172.32.0.1", true],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["224.0.0.1", false],
    ["2606:4700:4700::1111", true],
    ["::1", false],
    ["::", false],
    ["fe80::1", false],
    ["fd12:3456::1", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:8.8.8.8", true],
    ["64:ff9b::a9fe:a9fe", false],
    ["2001:db8::1", false],
    ["not an address", false],
  ])("%s → %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe("Ahrefs answers", () => {
  it.each([
    ["a success", answer(200, { metrics: {} }), null, null],
    ["a missing or wrong key", answer(401, { error: "API key is invalid or expired" }), "auth", null],
    ["a plan without API access", answer(403, { error: "Your plan does not include API access" }), "auth", null],
    [
      "the API-unit allowance used up",
      answer(403, { error: "API units limit reached for this billing period" }),
      "quota",
      3_600_000,
    ],
    [
      "the key's monthly cap",
      answer(403, { error: "Monthly usage limit for this API key exceeded" }),
      "quota",
      3_600_000,
    ],
    ["the 60-a-minute limit", answer(429, { error: "Too many requests" }), "rate", null],
    ["throttling that says when", answer(429, { error: "Too many requests" }, { "retry-after": "7" }), "rate", 7000],
    ["a wrong parameter", answer(400, { error: "invalid value for mode" }), "input", null],
    ["an outage", answer(500, { error: "Internal error" }), "server", null],
    ["a proxy's HTML page", answer(502, "<html>Bad gateway</html>"), "server", null],
  ])("%s → %s", (_, response, kind, wait) => {
    const error = classifyAhrefs("ahrefs", response);
    expect(error?.kind ?? null).toBe(kind);
    expect(error?.retryAfterMs ?? null).toBe(wait);
  });

  it("keeps Ahrefs' own sentence for the form and the logs", () => {
    expect(classifyAhrefs("ahrefs", answer(400, { error: "invalid value for mode" }))?.reason).toBe(
      "invalid value for mode",
    );
  });
});

describe("SEMrush answers (HTTP 200 with an ERROR line)", () => {
  it.each([
    ["ERROR 120 :: WRONG KEY - ID PAIR", "auth", null],
    ["ERROR 122 :: WRONG FORMAT OR EMPTY KEY", "auth", null],
    ["ERROR 130 :: API DISABLED", "auth", null],
    ["ERROR 131 :: LIMIT EXCEEDED", "rate", null],
    ["ERROR 132 :: API UNITS BALANCE IS ZERO", "quota", null],
    ["ERROR 134 :: TOTAL LIMIT EXCEEDED", "quota", null],
    ["ERROR 133 :: DB ACCESS DENIED", "input", "database"],
    ["ERROR 50 :: NOTHING FOUND", "input", null],
    ["ERROR 40 :: MANDATORY PARAMETER NOT SET", "input", null],
  ])("%s is %s", (body, kind, field) => {
    const error = classifySemrush("semrush", answer(200, `${body}\r\n`));
    expect(error?.kind).toBe(kind);
    expect(error?.reason).toBe(body);
    expect(error?.field).toBe(field);
  });

  it("a CSV report is a success; units used up wait an hour; an outage without an ERROR line goes by its status", () => {
    expect(classifySemrush("semrush", answer(200, "Rank;Date\r\n9000;20261015\r\n"))).toBeNull();
    expect(classifySemrush("semrush", answer(200, "ERROR 132 :: API UNITS BALANCE IS ZERO"))?.retryAfterMs).toBe(
      3_600_000,
    );
    expect(classifySemrush("semrush", answer(200, "ERROR 131 :: LIMIT EXCEEDED"))?.transient).toBe(true);
    expect(classifySemrush("semrush", answer(502, "Bad Gateway"))?.kind).toBe("server");
  });
});

describe("Serpstat answers (JSON-RPC errors, mostly with HTTP 200)", () => {
  const rpc = (code: number, message: string) => ({ id: "1", error: { code, message } });
  it.each([
    [200, rpc(-32001, "Invalid token!"), "auth"],
    [200, rpc(-32000, "API credits limit exceeded"), "quota"],
    [200, rpc(-32000, "You have reached the limit of API queries"), "quota"],
    [200, rpc(-32000, "Too many requests per second"), "rate"],
    [429, rpc(-32000, "Slow down"), "rate"],
    [200, rpc(-32602, "Invalid params: se"), "input"],
    [200, rpc(-32601, "Method not found"), "input"],
    [200, rpc(-32603, "Internal error"), "server"],
    [503, rpc(-32000, "Service unavailable"), "server"],
  ])("HTTP %i %j is %s", (status, body, kind) => {
    const error = classifySerpstat("serpstat", answer(status, body));
    expect(error?.kind).toBe(kind);
    expect(error?.reason).toBe(`${body.error.message} (code ${body.error.code})`);
  });

  it("a result is a success; credits used up wait an hour; an error without a JSON-RPC body goes by its status", () => {
    expect(classifySerpstat("serpstat", answer(200, { id: "1", result: { data: [] } }))).toBeNull();
    expect(classifySerpstat("serpstat", answer(200, rpc(-32000, "API credits limit exceeded")))?.retryAfterMs).toBe(
      3_600_000,
    );
    expect(classifySerpstat("serpstat", answer(502, "Bad Gateway"))?.kind).toBe("server");
  });
});
