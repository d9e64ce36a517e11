import { ConnectorError } from "../types";

/**
 * What went wrong with a provider, in the few kinds the product acts on (docs/connectors.md):
 * - `auth`: the grant is revoked or expired beyond refresh. The source becomes invalid (banner 125) and
 *   the user is asked to re-authorise. Nothing else may do that.
 * - `quota`: a daily or hourly allowance is used up. Stored results are served; asking again before the
 *   reset is pointless.
 * - `rate`: too many requests right now (429, Meta's throttling codes). Retried after the provider's
 *   delay when it is short, otherwise served from stored results.
 * - `input`: the widget's inputs are wrong for this account (an unknown metric, a property without
 *   access). A 422 on the form; the source stays valid.
 * - `server`: the provider failed or did not answer (5xx, timeouts, a connection reset, a body of the
 *   wrong shape). Retried within a budget, then stale results with a notice.
 */
export type ProviderErrorKind = "auth" | "quota" | "rate" | "input" | "server";

export const PROVIDER_ERROR_KINDS: readonly ProviderErrorKind[] = ["auth", "quota", "rate", "input", "server"];

/** One provider failure, normalised. The detail is for logs; `notice` is what a widget may show. */
export class ProviderError extends ConnectorError {
  readonly provider: string;
  readonly kind: ProviderErrorKind;
  /** The HTTP status the provider answered, or null when no answer came. */
  readonly httpStatus: number | null;
  /** How long the provider asked us to wait (Retry-After, Meta's regain time, a quota's reset), if it said. */
  readonly retryAfterMs: number | null;
  /** The form field an `input` error is about, when the provider names it. */
  readonly field: string | null;
  /** The provider's own words (its error message and code), without our prefix. */
  readonly reason: string;

  constructor(
    provider: string,
    kind: ProviderErrorKind,
    detail: string,
    options: {
      httpStatus?: number | null;
      retryAfterMs?: number | null;
      field?: string | null;
      /** False when asking again cannot help (an answer of the wrong shape will be wrong again). */
      retryable?: boolean;
    } = {},
  ) {
    super(`${provider} ${kind}: ${detail}`);
    this.reason = detail;
    this.provider = provider;
    this.kind = kind;
    this.httpStatus = options.httpStatus ?? null;
    this.retryAfterMs = options.retryAfterMs ?? null;
    this.field = options.field ?? null;
    this.retryable = options.retryable ?? true;
  }

  private readonly retryable: boolean;

  /** Worth asking again in this request (after `retryAfterMs` or a backoff): throttling and outages. */
  get transient(): boolean {
    return this.retryable && (this.kind === "rate" || this.kind === "server");
  }

  /** A short sentence for the widget, naming the provider ("Google Analytics quota reached"). */
  notice(label: string): string {
    switch (this.kind) {
      case "auth":
        return `${label} access was revoked or has expired`;
      case "quota":
        return `${label} quota reached`;
      case "rate":
        return `${label} is limiting requests`;
      case "input":
        return `${label} refused the widget's settings`;
      case "server":
        return `${label} is not answering`;
    }
  }

  protected override extra(): Record<string, unknown> {
    return { kind: this.kind };
  }
}

/**
 * Retry-After as seconds or as an HTTP date (RFC 9110 §10.2.3), in milliseconds from `now`; null when
 * absent or unreadable. A date in the past means "now" (0).
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}
