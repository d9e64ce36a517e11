import { describe, expect, it } from "vitest";
import { classifyRankRanger } from "./classify";

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers(headers),
  body,
  now: 0,
});

describe("Rank Ranger's error answers", () => {
  it.each([
    ["a key it does not know (HTTP 200)", 200, { error: { code: 101, message: "Invalid API key" } }, "auth"],
    ["a package without API access", 200, { error: { code: 102, message: "API access is not enabled" } }, "auth"],
    ["an unknown code naming the key", 200, { error: { code: 999, message: "API key expired" } }, "auth"],
    ["a campaign not in the account", 200, { error: { code: 201, message: "Campaign not found" } }, "input"],
    ["a domain the campaign does not track", 200, { error: { code: 202, message: "Domain is not tracked" } }, "input"],
    ["a malformed date", 200, { error: { code: 301, message: "Invalid date format: start_date" } }, "input"],
    ["the error inside `result`", 200, { result: { error: { code: 201, message: "Campaign not found" } } }, "input"],
    ["a plain error sentence", 200, { error: "Invalid API key" }, "auth"],
    ["too many requests", 429, "Too Many Requests", "rate"],
    ["a limit said in words", 200, { error: { code: 999, message: "Too many requests per minute" } }, "rate"],
    ["an outage", 503, "Service Unavailable", "server"],
    ["an internal error with HTTP 200", 200, { error: { code: 500, message: "Internal error" } }, "server"],
    ["401 without a body", 401, null, "auth"],
  ])("%s", (_, status, body, kind) => {
    expect(classifyRankRanger("rankranger", answer(status, body))?.kind).toBe(kind);
  });

  it("lets answers through, keeps Rank Ranger's words and code, and waits as told", () => {
    expect(classifyRankRanger("rankranger", answer(200, { result: [] }))).toBeNull();
    const error = classifyRankRanger(
      "rankranger",
      answer(200, { error: { code: 201, message: "Campaign not found" } }),
    );
    expect(error?.reason).toBe("Campaign not found (code 201)");
    const limited = classifyRankRanger("rankranger", answer(429, null, { "retry-after": "7" }));
    expect(limited?.retryAfterMs).toBe(7000);
  });
});
