import { describe, expect, it } from "vitest";
import { classifyGoogle } from "./classify";

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
