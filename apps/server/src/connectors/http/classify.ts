import { text } from "../kit/inputs";
import { ProviderError, type ProviderErrorKind, parseRetryAfter } from "./errors";

/** A provider's answer as the classifiers see it: the body already parsed when it was JSON. */
export interface ProviderAnswer {
  status: number;
  headers: Headers;
  body: unknown;
  now: number;
}

/** Reads an answer: null when it is a success, otherwise the failure in one of the product's kinds. */
export type Classifier = (provider: string, answer: ProviderAnswer) => ProviderError | null;

export const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** The kind an HTTP status alone suggests, for providers that say nothing more. */
export function kindOfStatus(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate";
  if (status >= 500) return "server";
  return "input";
}

/** Any provider: 2xx is a success, anything else is classified by its status and Retry-After. */
export const classifyByStatus: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  return new ProviderError(provider, kindOfStatus(answer.status), `HTTP ${answer.status}`, {
    httpStatus: answer.status,
    retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now),
  });
};

export const HOUR_MS = 3_600_000;

/** The provider's own sentence in a JSON error body (`message`, `error`, `detail` or `errors[0].message`). */
function bodyMessage(body: unknown): string {
  const object = record(body);
  if (!object) return typeof body === "string" ? body.slice(0, 200) : "";
  const first = Array.isArray(object.errors) ? record(object.errors[0]) : null;
  return text(object.message) || text(first?.message) || text(object.detail) || text(object.error);
}

/**
 * Providers that say what went wrong in a JSON body beside an honest HTTP status (SE Ranking's
 * `{message}`, Salesflare's hapi `{statusCode, error, message}`): the kind by status, the detail in the
 * provider's own words (shown on the sources form when a typed key is refused).
 */
export const classifyByStatusWithMessage: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  const message = bodyMessage(answer.body);
  return new ProviderError(provider, kindOfStatus(answer.status), message || `HTTP ${answer.status}`, {
    httpStatus: answer.status,
    retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now),
  });
};
