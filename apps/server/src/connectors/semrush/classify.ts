import { type Classifier, classifyByStatus, HOUR_MS } from "../http/classify";
import { ProviderError, type ProviderErrorKind } from "../http/errors";

/**
 * SEMrush's Standard API (v3) answers HTTP 200 with a line of text for every failure:
 * `ERROR 50 :: NOTHING FOUND`, `ERROR 120 :: WRONG KEY - ID PAIR`, `ERROR 132 :: API UNITS BALANCE IS ZERO`
 * (developer.semrush.com/api/v3/analytics/basic-docs, "Errors"; api/basics/api-units-balance). The code
 * decides the kind: the key (70, 120–122) or its API access (130) is the login's fault; 131 is the
 * 10-requests-a-second limit; units used up (132) or the account's total limit (134) last until more are
 * bought; a database (133) or report (135) outside the plan and a bad query (30–49) are the widget's
 * settings. Nothing found for the domain (50) is classified `input` too, but it is an answer, not a
 * failure: a new or small domain is not in the database yet, and the connector shows it as "No data"
 * with the reason (`isNothingFound`).
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

/** SEMrush's `ERROR 50 :: NOTHING FOUND`: the database has no rows for this domain (an answer, not a fault). */
export const isNothingFound = (error: unknown): boolean =>
  error instanceof ProviderError && error.provider === "semrush" && /^ERROR 50 ::/.test(error.reason);
