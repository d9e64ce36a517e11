import { type Classifier, classifyByStatus, HOUR_MS, record } from "../http/classify";
import { ProviderError, type ProviderErrorKind } from "../http/errors";
import { text } from "../kit/inputs";

/**
 * Serpstat's API v4 is JSON-RPC 2.0: a failure is `{id, error: {code, message}}`, mostly with HTTP 200
 * (developer.serpstat.com, "API protocol"). The standard codes say little (-32602 covers a bad domain
 * and a bad token alike), so the message decides: a token refused is `auth`; requests per second over
 * the plan's limit (1 a second on the lowest plan) are `rate`; credits (API lines) used up are `quota`
 * until more are bought; an internal error is `server`; anything else is the widget's settings.
 * "Data not found" (code 32017; a new or small domain) is classified `input` too but is an answer, not a
 * failure: Serpstat charges for it, and the connector keeps it as "No data" with the reason
 * (`isDataNotFound`).
 */
export const classifySerpstat: Classifier = (provider, answer) => {
  const error = record(record(answer.body)?.error);
  if (!error) return classifyByStatus(provider, answer);
  const code = Number(error.code ?? Number.NaN);
  const message = text(error.message) || `HTTP ${answer.status}`;
  const detail = Number.isNaN(code) ? message : `${message} (code ${code})`;
  const make = (kind: ProviderErrorKind, retryAfterMs: number | null = null) =>
    new ProviderError(provider, kind, detail, { httpStatus: answer.status, retryAfterMs });
  if (answer.status === 401 || answer.status === 403 || /token|unauthori[sz]ed|authenticat/i.test(message)) {
    return make("auth");
  }
  if (answer.status === 429 || /too many|per second|rate limit/i.test(message)) return make("rate", 1000);
  if (/credit|lines? limit|limit of (api )?(lines|queries|requests)|not enough/i.test(message))
    return make("quota", HOUR_MS);
  if (answer.status >= 500 || code === -32603) return make("server");
  return make("input");
};

/** Serpstat's answer for a domain it has no data on (code 32017 "Data not found", or "Empty result!"). */
export const isDataNotFound = (error: unknown): boolean =>
  error instanceof ProviderError &&
  error.provider === "serpstat" &&
  (/\(code 32017\)$/.test(error.reason) || /^(data not found|empty result)/i.test(error.reason));
