import { LRUCache } from "lru-cache";
import type { ProvidersConfig } from "../../infra/config";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import { createProviderClient, type ProviderClient, type ProviderRequest } from "../http/client";
import { ProviderError } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import type { OAuthAdapterFactory } from "../oauth/adapter";
import type { SourceHandle } from "../types";
import { classifyMeta, metaUsageHolds } from "./classify";
import { graphAuth, metaOAuth, missingMetaConfig } from "./oauth";

/**
 * What the Meta connectors (Facebook Ads, Facebook Social, Instagram) share: one Graph API client per
 * server process, the app's configuration check, and the signed-in user's token for a source.
 */

/** The Graph API (graph.facebook.com): Meta's error object and throttling codes, usage headers read for the wait. */
export const metaGraph = perRuntime((runtime) =>
  withMetaUsage(
    createProviderClient({
      provider: "meta",
      baseUrl: runtime.providers.meta.graphUrl,
      classify: classifyMeta,
      counters: runtime.counters,
      concurrency: 5,
    }),
    "meta",
    runtime.counters,
  ),
);

/**
 * Whether Meta's usage is held for the app or for one limit key (an ad account's `account:<id>`): an
 * optional query (pre-warm, insights) then stays away. Business holds are learnt per process, so only
 * these two are asked.
 */
export async function metaUsageHeld(counters: RateLimitStore, limitKey: string): Promise<boolean> {
  for (const scope of ["app", `key:${limitKey}`]) {
    if ((await counters.peek(`provider:meta:hold:${scope}`)) > 0) return true;
  }
  return false;
}

/**
 * Meta throttles at 100 % of any usage header and then refuses every call until usage drops, which
 * can take an hour. So the usage Meta reports on successful answers is read too: a key near its limit
 * is held (no request) for the time Meta states, and its widgets are served their stored numbers with
 * a notice instead of spending the last few percent. Holds live in the shared counters, so every
 * process honours them; they are named by scope: `app` (X-App-Usage, all three connectors share the
 * app), `key:<limitKey>` (the ad account, Page or Instagram account a request was for) and
 * `business:<id>` (a Business Use Case id; which ids a limit key maps to is learnt per process).
 */
export function withMetaUsage(client: ProviderClient, provider: string, counters: RateLimitStore): ProviderClient {
  const businessesOf = new LRUCache<string, string[]>({ max: 10_000 });
  const counterOf = (hold: string) => `provider:meta:hold:${hold}`;

  /** The hold's remaining time, or null when there is none. */
  async function remaining(hold: string): Promise<number | null> {
    if ((await counters.peek(counterOf(hold))) === 0) return null;
    // A hit on a running window leaves its end where it is and says how far away it is.
    const { resetInMs } = await counters.hit(counterOf(hold), 1);
    return resetInMs > 0 ? resetInMs : null;
  }

  async function hold(name: string, ms: number) {
    const left = await remaining(name);
    if (left !== null && left >= ms) return;
    await counters.reset(counterOf(name));
    await counters.hit(counterOf(name), ms);
  }

  return {
    async request<T>(request: ProviderRequest<T>): Promise<T> {
      const key = request.limitKey ?? provider;
      const scopes = ["app", `key:${key}`, ...(businessesOf.get(key) ?? []).map((id) => `business:${id}`)];
      for (const scope of scopes) {
        const left = await remaining(scope);
        if (left !== null) {
          throw new ProviderError(provider, "rate", `Meta usage near its limit (${scope}): not asked for ${left} ms`, {
            retryAfterMs: left,
            retryable: false,
          });
        }
      }
      const seen: { headers: Headers | null } = { headers: null };
      const answer = await client.request({
        ...request,
        onHeaders: (headers) => {
          seen.headers = headers;
          request.onHeaders?.(headers);
        },
      });
      if (seen.headers) {
        const usage = metaUsageHolds(seen.headers);
        if (usage.businesses.length > 0) businessesOf.set(key, usage.businesses);
        for (const entry of usage.holds) {
          await hold(entry.scope === "key" ? `key:${key}` : entry.scope, entry.ms);
        }
      }
      return answer;
    },
  };
}

/** The variables every Meta connector needs. */
export function missingMeta(providers: ProvidersConfig): string[] {
  return missingMetaConfig(providers.meta);
}

/** The Graph API version path segment a Pages or Instagram call starts with ("/v25.0"); Facebook Ads uses the Marketing API's. */
export const graphVersion = (source: SourceHandle) => `/${source.runtime.providers.meta.graphVersion}`;

/** A source's long-lived user token (an `auth` failure once it expired), as headers and query for a Graph call. */
export function metaUserAuth(source: SourceHandle) {
  const meta = source.runtime.providers.meta;
  const token = metaOAuth(meta, source.runtime.counters).userToken(source.credentials, Date.now());
  return graphAuth(meta, token);
}

/**
 * When a stored Meta login ends: the long-lived user token's `expires_at` (about 60 days after sign-in,
 * never refreshed); null for a token without expiry (a System User token, docs/connectors.md).
 */
export function metaGrantExpiresAt(credentials: Readonly<Record<string, string>>): number | null {
  const at = Number(credentials.expires_at || Number.NaN);
  return Number.isFinite(at) && at > 0 ? at : null;
}

/** The OAuth adapter that connects this family's connectors (`Connector.oauth`), built from the server's configuration. */
export const metaOAuthAdapter: OAuthAdapterFactory = (providers, counters) => ({
  ...metaOAuth(providers.meta, counters),
  grantExpiresAt: metaGrantExpiresAt,
});
