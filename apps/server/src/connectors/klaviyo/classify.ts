import { type Classifier, classifyByStatusWithMessage, kindOfStatus, record } from "../http/classify";
import { ProviderError, parseRetryAfter } from "../http/errors";
import { text } from "../kit/inputs";

/**
 * JSON:API errors (Klaviyo): `{errors: [{id, status, code, title, detail, source}]}`
 * (developers.klaviyo.com/en/docs/rate_limits_and_error_handling). `not_authenticated` and
 * `authentication_failed` (401) are a wrong or revoked private key, `permission_denied` (403) a key
 * without the scope; `throttled` (429) comes with Retry-After in seconds.
 */
export const classifyJsonApi: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  const errors = record(answer.body)?.errors;
  const first = Array.isArray(errors) ? record(errors[0]) : null;
  if (!first) return classifyByStatusWithMessage(provider, answer);
  const code = text(first.code);
  const words = [text(first.title), text(first.detail)].filter(
    (part, index, all) => part && all.indexOf(part) === index,
  );
  const detail = `${words.join(" ") || `HTTP ${answer.status}`}${code ? ` (${code})` : ""}`;
  const pointer = text(record(first.source)?.pointer);
  return new ProviderError(provider, kindOfStatus(answer.status), detail, {
    httpStatus: answer.status,
    retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now),
    field: pointer.endsWith("/conversion_metric_id") ? "conversionMetric" : null,
  });
};
