import { describe, expect, it } from "vitest";
import { classifyByStatus, classifyByStatusWithMessage } from "./classify";
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
