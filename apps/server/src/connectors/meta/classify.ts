import { type Classifier, classifyByStatus, record } from "../http/classify";
import { ProviderError, type ProviderErrorKind } from "../http/errors";
import { text } from "../kit/inputs";

/** Meta's throttling codes (Graph API rate limiting): app, user, page, custom and Business Use Case limits. */
const META_RATE_CODES = new Set([4, 17, 32, 613, ...Array.from({ length: 15 }, (_, index) => 80000 + index)]);
/** An invalid or expired token (190, its subcodes say why), an invalid session (102), a missing permission (10, 200–299). */
const META_AUTH_CODES = new Set([10, 102, 190]);

/**
 * The longest `estimated_time_to_regain_access` (minutes) in Meta's usage headers, in milliseconds; null
 * when none says to wait. `X-Business-Use-Case-Usage` is `{<id>: [{type, call_count, total_cputime,
 * total_time, estimated_time_to_regain_access}]}`; `X-Ad-Account-Usage` carries `reset_time_duration` (s).
 */
export function metaRegainMs(headers: Headers): number | null {
  let wait: number | null = null;
  const business = headers.get("x-business-use-case-usage");
  if (business) {
    try {
      const usage = record(JSON.parse(business)) ?? {};
      for (const entries of Object.values(usage)) {
        for (const entry of Array.isArray(entries) ? entries : []) {
          const minutes = Number(record(entry)?.estimated_time_to_regain_access ?? 0);
          if (minutes > 0) wait = Math.max(wait ?? 0, minutes * 60_000);
        }
      }
    } catch {
      // An unreadable header says nothing.
    }
  }
  const account = headers.get("x-ad-account-usage");
  if (account) {
    try {
      const seconds = Number(record(JSON.parse(account))?.reset_time_duration ?? 0);
      const percent = Number(record(JSON.parse(account))?.acc_id_util_pct ?? 0);
      if (seconds > 0 && percent >= 100) wait = Math.max(wait ?? 0, seconds * 1000);
    } catch {
      // As above.
    }
  }
  return wait;
}

/** A share of a Meta limit (percent) from which a key is held before Meta throttles it at 100. */
export const META_HOLD_PERCENT = 95;
/**
 * How long a key near its limit is held when Meta states no time: X-App-Usage never does, and a BUC
 * entry at 95 % may still say 0 minutes. Meta's windows roll over an hour, so usage falls gradually;
 * a few minutes lets it fall without leaving widgets on stored numbers for long.
 */
export const META_DEFAULT_HOLD_MS = 5 * 60_000;

/** What a hold is on: the whole app, the request's own key (ad account, Page), or a Business Use Case id. */
export type MetaHoldScope = "app" | "key" | `business:${string}`;

const parseHeader = (headers: Headers, name: string): unknown => {
  const raw = headers.get(name);
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    // An unreadable header says nothing.
    return null;
  }
};

const percentOf = (entry: Record<string, unknown> | null, fields: readonly string[]) =>
  Math.max(0, ...fields.map((field) => Number(entry?.[field] ?? 0)).filter(Number.isFinite));

/**
 * Meta's usage headers on any answer, successful ones included, as holds: `X-App-Usage`
 * (`{call_count, total_cputime, total_time}`, percent of the app's rolling hour), `X-Business-Use-Case-Usage`
 * (`{<id>: [{type, call_count, total_cputime, total_time, estimated_time_to_regain_access}]}`, minutes)
 * and `X-Ad-Account-Usage` (`{acc_id_util_pct, reset_time_duration}`, seconds). A share at or above
 * META_HOLD_PERCENT, or a regain time above 0, holds the scope for the stated time (or the default).
 * `businesses` lists every BUC id the answer named, so the caller can map its key to them.
 */
export function metaUsageHolds(headers: Headers): {
  holds: { scope: MetaHoldScope; ms: number }[];
  businesses: string[];
} {
  const holds: { scope: MetaHoldScope; ms: number }[] = [];
  const shares = ["call_count", "total_cputime", "total_time"] as const;
  const app = record(parseHeader(headers, "x-app-usage"));
  if (app && percentOf(app, shares) >= META_HOLD_PERCENT) holds.push({ scope: "app", ms: META_DEFAULT_HOLD_MS });

  const business = record(parseHeader(headers, "x-business-use-case-usage")) ?? {};
  for (const [id, entries] of Object.entries(business)) {
    for (const entry of Array.isArray(entries) ? entries.map(record) : []) {
      const minutes = Number(entry?.estimated_time_to_regain_access ?? 0);
      if (minutes > 0 || percentOf(entry, shares) >= META_HOLD_PERCENT) {
        const ms = minutes > 0 ? minutes * 60_000 : META_DEFAULT_HOLD_MS;
        // The business id for other keys of the same business, the request's key for other processes
        // (they have not learnt which business the key belongs to).
        holds.push({ scope: `business:${id}`, ms }, { scope: "key", ms });
      }
    }
  }

  const account = record(parseHeader(headers, "x-ad-account-usage"));
  if (account && percentOf(account, ["acc_id_util_pct"]) >= META_HOLD_PERCENT) {
    const seconds = Number(account.reset_time_duration ?? 0);
    holds.push({ scope: "key", ms: seconds > 0 ? seconds * 1000 : META_DEFAULT_HOLD_MS });
  }
  return { holds, businesses: Object.keys(business) };
}

/**
 * Meta's Graph API: failures are `{error: {message, type, code, error_subcode, is_transient}}` with 400
 * (or 200 on batch answers); the throttling codes 4, 17, 32, 613 and 80000–80014 come with usage headers
 * that say how long to wait. Code 190 is an invalid or expired token.
 */
export const classifyMeta: Classifier = (provider, answer) => {
  const error = record(record(answer.body)?.error);
  if (!error && answer.status >= 200 && answer.status < 300) return null;
  const code = Number(error?.code ?? Number.NaN);
  const message = text(error?.message) || `HTTP ${answer.status}`;
  const detail = `code ${Number.isNaN(code) ? "?" : code}${error?.error_subcode ? `/${error.error_subcode}` : ""}: ${message}`;
  const make = (kind: ProviderErrorKind, retryAfterMs: number | null = null) =>
    new ProviderError(provider, kind, detail, { httpStatus: answer.status, retryAfterMs });
  if (META_RATE_CODES.has(code)) return make("rate", metaRegainMs(answer.headers) ?? 60_000);
  // Not the type: Meta calls most errors OAuthException, an invalid parameter (#100) included.
  if (META_AUTH_CODES.has(code) || (code >= 200 && code <= 299)) return make("auth");
  if (error?.is_transient === true || code === 1 || code === 2 || answer.status >= 500) return make("server");
  if (!error) return classifyByStatus(provider, answer);
  return make("input");
};
