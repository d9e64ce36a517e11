import type { ProvidersConfig } from "../../infra/config";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import type { OAuthAdapter, OAuthFamily } from "./adapter";
import { googleOAuth } from "./google";
import { metaOAuth } from "./meta";

type AdapterFactory = (providers: ProvidersConfig, counters: RateLimitStore) => OAuthAdapter;

/**
 * Each OAuth provider family's adapter, built from the server's configuration. A family without an
 * entry here has no adapter yet: its connectors cannot be connected (the service answers 404).
 */
const ADAPTERS: Partial<Record<OAuthFamily, AdapterFactory>> = {
  google: (providers, counters) => googleOAuth(providers.google, counters),
  meta: (providers, counters) => metaOAuth(providers.meta, counters),
};

/** The adapter of a provider family, or null when none is built. */
export function oauthAdapter(
  family: OAuthFamily,
  providers: ProvidersConfig,
  counters: RateLimitStore,
): OAuthAdapter | null {
  return ADAPTERS[family]?.(providers, counters) ?? null;
}
