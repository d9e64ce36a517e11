import type { ProvidersConfig } from "../../infra/config";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import { accurankerOAuth } from "./accuranker";
import type { OAuthAdapter, OAuthFamily } from "./adapter";
import { baseOAuth } from "./base";
import { googleOAuth } from "./google";
import { linkedinOAuth } from "./linkedin";
import { mailchimpOAuth } from "./mailchimp";
import { metaOAuth } from "./meta";
import { tiktokOAuth } from "./tiktok";

type AdapterFactory = (providers: ProvidersConfig, counters: RateLimitStore) => OAuthAdapter;

/** Each OAuth provider family's adapter, built from the server's configuration. */
const ADAPTERS: Record<OAuthFamily, AdapterFactory> = {
  google: (providers, counters) => googleOAuth(providers.google, counters),
  meta: (providers, counters) => metaOAuth(providers.meta, counters),
  linkedin: (providers, counters) => linkedinOAuth(providers.linkedin, counters),
  tiktok: (providers, counters) => tiktokOAuth(providers.tiktok, counters),
  mailchimp: (providers, counters) => mailchimpOAuth(providers.mailchimp, counters),
  base: (providers, counters) => baseOAuth(providers.base, counters),
  accuranker: (providers, counters) => accurankerOAuth(providers.accuranker, counters),
};

/** The adapter of a provider family. */
export function oauthAdapter(family: OAuthFamily, providers: ProvidersConfig, counters: RateLimitStore): OAuthAdapter {
  return ADAPTERS[family](providers, counters);
}
