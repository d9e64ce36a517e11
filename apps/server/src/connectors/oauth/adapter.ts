import type { ProvidersConfig } from "../../infra/config";
import type { RateLimitStore } from "../../infra/rate-limit-store";

/**
 * What every provider's OAuth adapter offers the OAuth service (features/oauth) and the sources service
 * (revoke on delete). Each provider family keeps its quirks in its own file (its PKCE and refresh, token
 * swap, answer envelope or data-centre lookup …); the flow
 * around them — state, the signed-in user, one use only, creating or re-authorising the source — is
 * written once, in the service.
 */
export interface OAuthAuthorizeInput {
  /** The connector key (scopes are per connector). */
  connector: string;
  state: string;
  /** PKCE S256 challenge; adapters of providers that take no PKCE ignore it. */
  codeChallenge: string;
  redirectUri: string;
}

export interface OAuthExchangeInput {
  code: string;
  codeVerifier: string;
  redirectUri: string;
  /** Epoch milliseconds. */
  now: number;
  /** The account the user typed before signing in, for connectors that ask for one (AccuRanker). */
  account: string | null;
}

export interface OAuthAdapter {
  /** The provider's consent screen for one connector. */
  authorizeUrl(input: OAuthAuthorizeInput): string;
  /** The callback's code for stored credentials (a string map, sealed) and the account shown on the source. */
  exchange(input: OAuthExchangeInput): Promise<{ tokens: Record<string, string>; account: string | null }>;
  /** Gives the grant back when the source is deleted; a token already dead is fine. Absent: nothing to revoke. */
  revoke?(credentials: Readonly<Record<string, string>>): Promise<void>;
  /**
   * When the stored login ends for good (epoch ms), for providers without refresh (Meta's ~60-day
   * token): the sources service copies it next to the source so admins are warned before (docs/product.md).
   * Null when these credentials do not expire. Absent: the provider refreshes, nothing to warn about.
   */
  grantExpiresAt?(credentials: Readonly<Record<string, string>>): number | null;
}

/**
 * Builds a provider family's adapter from the server's configuration. A connector carries its family's
 * factory in `Connector.oauth` (the family's or the connector's folder exports it: `google/shared.ts`, `<key>/oauth.ts` …),
 * so no list of families outside the connectors' folders has to be kept in step.
 */
export type OAuthAdapterFactory = (providers: ProvidersConfig, counters: RateLimitStore) => OAuthAdapter;
