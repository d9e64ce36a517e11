import { describe, expect, it } from "vitest";
import { classifySerpstat, isDataNotFound } from "./classify";

// 2026-11-25 10:30:00 UTC = 02:30 in Los Angeles: GA4's daily quota resets in 21.5 hours.
const NOW = Date.UTC(2026, 10, 25, 10, 30, 0);

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers(headers),
  body,
  now: NOW,
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

  it("Data not found (32017) and an empty result are answers with nothing in them, nothing else is", () => {
    const of = (body: unknown) => classifySerpstat("serpstat", answer(200, body));
    expect(isDataNotFound(of(rpc(32017, "Data not found")))).toBe(true);
    expect(isDataNotFound(of(rpc(-32000, "Empty result!")))).toBe(true);
    expect(isDataNotFound(of(rpc(-32602, "Invalid params: domain")))).toBe(false);
    expect(isDataNotFound(of(rpc(-32000, "API credits limit exceeded")))).toBe(false);
  });
});
