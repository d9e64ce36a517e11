import { describe, expect, it } from "vitest";
import { classifyAhrefs } from "./classify";

// 2026-11-25 10:30:00 UTC = 02:30 in Los Angeles: GA4's daily quota resets in 21.5 hours.
const NOW = Date.UTC(2026, 10, 25, 10, 30, 0);

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers(headers),
  body,
  now: NOW,
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
