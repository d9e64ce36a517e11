import { z } from "zod";
import type { ProvidersConfig } from "../../infra/config";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import type { OAuthAdapter, OAuthAdapterFactory } from "../oauth/adapter";
import { standardOAuth2 } from "../oauth/standard";

/**
 * Base CRM's OAuth 2 (Zendesk Sell, `api.getbase.com`; the "Base.me" connector, docs/decisions.md):
 * the consent screen at `/oauth2/authorize`, a form POST to `/oauth2/token` with the client in HTTP Basic,
 * `{access_token, token_type, expires_in: 3599, refresh_token}` back, refreshed with the refresh grant.
 * Base refuses every request without a `User-Agent` (400), token requests included, so each carries ours.
 * No PKCE (Base documents none); the client secret and the single-use state protect the code.
 */

type BaseConfig = ProvidersConfig["base"];

/** Sent on every Base request: Base answers 400 to requests without a User-Agent. */
export const BASE_USER_AGENT = "Reportz-Dashboards/1.0 (+https://reportz.io)";

/** Read access and the user's profile (`/v2/users/self` needs `profile`). */
export const BASE_SCOPES: Record<string, string[]> = { baseMe: ["read", "profile"] };

/** `GET /v2/users/self`: Base's envelope around the signed-in user. */
export const ZBaseSelf = z.object({
  data: z.object({ id: z.coerce.string(), name: z.string().nullish(), email: z.string().nullish() }),
});

export const baseOrigin = (config: BaseConfig) => config.apiUrl.replace(/\/+$/, "");

/** The token side of Base's OAuth (one per configuration and counters store; its limits act across requests). */
export function baseTokens(config: BaseConfig, counters: RateLimitStore) {
  return standardOAuth2({
    provider: "base-oauth",
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    clientVariables: ["BASE_CLIENT_ID", "BASE_CLIENT_SECRET"],
    authUrl: `${baseOrigin(config)}/oauth2/authorize`,
    tokenUrl: `${baseOrigin(config)}/oauth2/token`,
    scopes: BASE_SCOPES,
    clientAuth: "basic",
    headers: { "user-agent": BASE_USER_AGENT },
    counters,
  });
}

/** The variables the connector needs. */
export function missingBaseConfig(config: BaseConfig): string[] {
  return [config.clientId ? null : "BASE_CLIENT_ID", config.clientSecret ? null : "BASE_CLIENT_SECRET"].filter(
    (name): name is string => name !== null,
  );
}

export function baseOAuth(config: BaseConfig, counters: RateLimitStore): OAuthAdapter {
  const oauth = baseTokens(config, counters);
  return {
    authorizeUrl: (input) => oauth.authorizeUrl(input),

    /** The code for tokens; the account is the signed-in Base user (name, else e-mail). */
    async exchange(input) {
      const { tokens } = await oauth.exchangeCode(input);
      // The token client's base is the host's origin; the API may sit under a path (a proxy, the fakes).
      const self = await oauth.tokenClient.request({
        path: `${new URL(baseOrigin(config)).pathname.replace(/\/+$/, "")}/v2/users/self`,
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          accept: "application/json",
          "user-agent": BASE_USER_AGENT,
        },
        schema: ZBaseSelf,
      });
      return { tokens, account: self.data.name || self.data.email || `User ${self.data.id}` };
    },
  };
}

/** The OAuth adapter that connects this family's connectors (`Connector.oauth`), built from the server's configuration. */
export const baseOAuthAdapter: OAuthAdapterFactory = (providers, counters) => baseOAuth(providers.base, counters);
