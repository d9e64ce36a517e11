import { describe, expect, it } from "vitest";
import { classifyMeta, META_DEFAULT_HOLD_MS, metaRegainMs, metaUsageHolds } from "./classify";

// 2026-11-25 10:30:00 UTC = 02:30 in Los Angeles: GA4's daily quota resets in 21.5 hours.
const NOW = Date.UTC(2026, 10, 25, 10, 30, 0);

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers(headers),
  body,
  now: NOW,
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
