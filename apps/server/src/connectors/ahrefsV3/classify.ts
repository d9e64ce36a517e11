import { type Classifier, HOUR_MS, kindOfStatus, record } from "../http/classify";
import { ProviderError, type ProviderErrorKind, parseRetryAfter } from "../http/errors";
import { text } from "../kit/inputs";

/**
 * Ahrefs API v3: failures are `{error: "<sentence>"}` with an honest status (docs.ahrefs.com OpenAPI,
 * every operation declares 400, 401, 403, 429 and 500). 401 is a missing, wrong or expired key. 403 is
 * either the API-unit allowance (workspace or per-key monthly cap) used up, which is a quota until the
 * billing month resets, or a plan without API access for the key, which only another key fixes. 429 is
 * the 60-a-minute limit or Ahrefs' load throttling, without Retry-After.
 */
export const classifyAhrefs: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  const body = record(answer.body);
  const message =
    text(body?.error) || (typeof answer.body === "string" ? answer.body.slice(0, 200) : "") || `HTTP ${answer.status}`;
  const make = (kind: ProviderErrorKind, retryAfterMs: number | null = null) =>
    new ProviderError(provider, kind, message, {
      httpStatus: answer.status,
      retryAfterMs: retryAfterMs ?? parseRetryAfter(answer.headers.get("retry-after"), answer.now),
    });
  if (answer.status === 403 && /\bunits?\b|limit|usage|allowance|quota/i.test(message)) {
    // A monthly allowance: Ahrefs says nothing of when it comes back (top-ups are possible), so it is
    // asked again after an hour, not before.
    return make("quota", HOUR_MS);
  }
  return make(kindOfStatus(answer.status));
};
