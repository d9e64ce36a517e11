/**
 * What leaves for the error-reporting service (Sentry) from the server and the browser: never cookies,
 * authorisation headers, passwords, tokens, e-mail addresses or request bodies. Keys that name a secret
 * lose their value wherever they are; strings lose e-mail addresses, credentials inside URLs, bearer
 * values and secret-looking query parameters; the request keeps its method, a URL without its query
 * and a few harmless headers; the user keeps only its id; breadcrumbs are dropped (they echo console
 * lines and request URLs).
 */

const FILTERED = "[Filtered]";
const SECRET_KEY =
  /pass(word|wd|phrase)?|secret|token|auth|cookie|session|credential|api[-_]?key|app[-_]?key|private[-_]?key|identification|e-?mail|dsn|signature/i;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;
const AUTH_VALUE = /\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{6,}/gi;
// `token=…` wherever it appears: in a query string, a form body or a sentence.
const SECRET_PARAM =
  /((?:^|[?&;\s,(])(?:[a-z0-9_-]*(?:token|password|secret|key|signature|code|email|auth)[a-z0-9_-]*)=)[^&\s#;,)]*/gi;
const KEPT_HEADERS = new Set(["user-agent", "accept", "accept-language", "content-type", "content-length"]);
const MAX_DEPTH = 24;

/** A string with every personal or secret fragment replaced. */
export function scrubText(text: string): string {
  return text
    .replace(URL_CREDENTIALS, `$1${FILTERED}@`)
    .replace(EMAIL, "[email]")
    .replace(AUTH_VALUE, `$1 ${FILTERED}`)
    .replace(SECRET_PARAM, `$1${FILTERED}`);
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) return FILTERED;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    result[key] = SECRET_KEY.test(key) && item !== null && item !== undefined ? FILTERED : scrubValue(item, depth + 1);
  }
  return result;
}

interface EventParts {
  request?: { url?: string; method?: string; headers?: Record<string, string> };
  user?: { id?: string | number };
  breadcrumbs?: unknown;
  [key: string]: unknown;
}

/** A copy of the event fit to leave the machine (Sentry's `beforeSend`). */
export function scrubErrorEvent<E extends object>(event: E): E {
  const { request, user, breadcrumbs: _dropped, ...rest } = event as EventParts;
  const scrubbed = scrubValue(rest, 0) as EventParts;
  if (request) {
    const headers = Object.fromEntries(
      Object.entries(request.headers ?? {}).filter(([name]) => KEPT_HEADERS.has(name.toLowerCase())),
    );
    scrubbed.request = {
      ...(request.method ? { method: request.method } : {}),
      ...(request.url ? { url: scrubText(request.url.split(/[?#]/)[0]) } : {}),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
  }
  if (user?.id !== undefined) scrubbed.user = { id: user.id };
  return scrubbed as E;
}
