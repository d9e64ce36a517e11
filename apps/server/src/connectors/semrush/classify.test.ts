import { describe, expect, it } from "vitest";
import { classifySemrush, isNothingFound } from "./classify";

// 2026-11-25 10:30:00 UTC = 02:30 in Los Angeles: GA4's daily quota resets in 21.5 hours.
const NOW = Date.UTC(2026, 10, 25, 10, 30, 0);

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers(headers),
  body,
  now: NOW,
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

  it("nothing found (50) is an answer with nothing in it; other input errors are not", () => {
    const of = (body: string) => classifySemrush("semrush", answer(200, `${body}\r\n`));
    expect(isNothingFound(of("ERROR 50 :: NOTHING FOUND"))).toBe(true);
    expect(isNothingFound(of("ERROR 40 :: MANDATORY PARAMETER NOT SET"))).toBe(false);
    expect(isNothingFound(of("ERROR 133 :: DB ACCESS DENIED"))).toBe(false);
  });
});
