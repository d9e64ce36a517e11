import { type Classifier, classifyByStatusWithMessage, kindOfStatus, record } from "../http/classify";
import { ProviderError, type ProviderErrorKind, parseRetryAfter } from "../http/errors";
import { text } from "../kit/inputs";

/**
 * WordPress REST answers (WooCommerce's `wc/v3` and `wc-analytics` routes): errors are `WP_Error`s as
 * `{code, message, data: {status}}` (developer.wordpress.org/rest-api/using-the-rest-api/global-parameters,
 * "Errors"). A refused consumer key (`woocommerce_rest_authentication_error`) or a key without read
 * access (`woocommerce_rest_cannot_view`, 401 or 403) is the login; a redirect is never followed (the
 * site is user-supplied: the next hop could be anywhere), so it is the site field's error naming where it
 * points; `rest_no_route` (404) means the route is absent on this site (no WooCommerce, or no Analytics).
 */
const WOOCOMMERCE_AUTH_CODES = new Set([
  "woocommerce_rest_authentication_error",
  "woocommerce_rest_cannot_view",
  "rest_forbidden",
  "rest_not_logged_in",
]);

export const classifyWooCommerce: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  if (answer.status >= 300 && answer.status < 400) {
    const location = answer.headers.get("location");
    return new ProviderError(
      provider,
      "input",
      location
        ? `the site redirects to ${location} (HTTP ${answer.status}); enter the address it redirects to`
        : `the site answered a redirect (HTTP ${answer.status}) without saying where to`,
      { httpStatus: answer.status, field: "site", retryable: false },
    );
  }
  const body = record(answer.body);
  const code = text(body?.code);
  if (!code) return classifyByStatusWithMessage(provider, answer);
  const detail = `${text(body?.message) || `HTTP ${answer.status}`} (${code})`;
  const make = (kind: ProviderErrorKind) =>
    new ProviderError(provider, kind, detail, {
      httpStatus: answer.status,
      retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now),
    });
  if (WOOCOMMERCE_AUTH_CODES.has(code) || answer.status === 401 || answer.status === 403) return make("auth");
  return make(kindOfStatus(answer.status));
};

/** True for WordPress' "no such route" answer: the route's plugin (WooCommerce, its Analytics) is absent. */
export const isWordPressNoRoute = (error: ProviderError) =>
  error.httpStatus === 404 && error.reason.endsWith("(rest_no_route)");
