import type { Classifier } from "../http/classify";
import { classifyByStatusWithMessage, kindOfStatus } from "../http/classify";
import { ProviderError, type ProviderErrorKind, parseRetryAfter } from "../http/errors";
import { text } from "../kit/inputs";

/**
 * Rank Ranger's failures (assumed, docs/connectors.md: its "API Overview" page lists error codes but is
 * not public): `{error: {code, message}}`, mostly with HTTP 200 as old query-string APIs do, sometimes
 * with an error status. The codes below are our guess, kept in one table; the message decides when the
 * code is unknown: a key refused or without API access is the login's fault (`auth`), a campaign,
 * domain, search engine or date it does not take is the widget's (`input`), limits are `rate`, and
 * Rank Ranger failing is `server`.
 */
const CODES: Record<number, ProviderErrorKind> = {
  101: "auth", // invalid API key
  102: "auth", // API access not enabled for the package
  201: "input", // campaign not found / not in the key's account
  202: "input", // domain not tracked in the campaign
  203: "input", // search engine not tracked in the campaign
  301: "input", // missing or malformed parameter
  429: "rate", // too many requests
  500: "server",
};

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

function kindOf(status: number, code: number, message: string): ProviderErrorKind {
  if (status === 429 || /too many|rate limit|per (second|minute)/i.test(message)) return "rate";
  if (status >= 500) return "server";
  const known = CODES[code];
  if (known) return known;
  if (status === 401 || status === 403 || /api key|\bkey\b|unauthori[sz]ed|api access/i.test(message)) return "auth";
  return status >= 400 ? kindOfStatus(status) : "input";
}

export const classifyRankRanger: Classifier = (provider, answer) => {
  const body = record(answer.body);
  // The error may sit at the top or inside `result`.
  const raw = body?.error ?? record(body?.result)?.error;
  const ok = answer.status >= 200 && answer.status < 300;
  if (raw === undefined || raw === null) return ok ? null : classifyByStatusWithMessage(provider, answer);
  const error = record(raw);
  const code = Number(error?.code ?? Number.NaN);
  const message = text(error?.message) || text(raw) || `HTTP ${answer.status}`;
  const detail = Number.isNaN(code) ? message : `${message} (code ${code})`;
  const kind = kindOf(answer.status, code, message);
  return new ProviderError(provider, kind, detail, {
    httpStatus: answer.status,
    retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now) ?? (kind === "rate" ? 1000 : null),
  });
};
