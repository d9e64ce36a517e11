/**
 * What every provider's OAuth adapter offers the OAuth service (features/oauth) and the sources service
 * (revoke on delete). Each provider family keeps its quirks in its own file (Google's PKCE and refresh,
 * Meta's token swap, TikTok's `{code, data}` envelope, Mailchimp's data-centre lookup …); the flow
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
}

/** The OAuth provider families (a connector names its family in `Connector.oauth`). */
export const OAUTH_FAMILIES = ["google", "meta", "linkedin", "base", "accuranker", "mailchimp", "tiktok"] as const;
export type OAuthFamily = (typeof OAUTH_FAMILIES)[number];
