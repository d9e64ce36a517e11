import { z } from "zod";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import { classifyByStatusWithMessage } from "../http/classify";
import { createProviderClient, type ProviderClient } from "../http/client";
import { ProviderError } from "../http/errors";
import type { OAuthAdapter } from "../oauth/adapter";
import { type StandardTokens, standardOAuth2 } from "../oauth/standard";
import type { LinkedInApp, LinkedInProviderConfig } from "./settings";

/**
 * LinkedIn's OAuth 2.0 (3-legged, authorization code) for LinkedIn Ads and LinkedIn Social
 * (docs/connectors.md, "LinkedIn sign-in"): the consent screen at `{LINKEDIN_AUTH_URL}/oauth/v2/authorization`,
 * the code exchanged by a form POST to `/oauth/v2/accessToken` with the client id and secret in the form.
 * No PKCE: LinkedIn's web flow for a confidential client takes none; the secret and the one-use state
 * bound to the signed-in user (features/oauth) protect the code.
 *
 * Access tokens live 60 days. Refresh tokens (a year) are issued only to apps LinkedIn approved for
 * programmatic refresh: one is stored when given and used a minute before the access token expires;
 * without one an expired token is an `auth` failure and the user connects again (banner 125).
 *
 * The source's account is the member's name. LinkedIn Ads' app also carries "Sign In with LinkedIn using
 * OpenID Connect", so it reads OpenID Connect's `GET {LINKEDIN_API_URL}/v2/userinfo` (scopes `openid
 * profile`; no Marketing version header, no r_liteprofile, which new apps can no longer get). LinkedIn
 * Social's app holds the Community Management API alone, which grants no `openid` (LinkedIn refuses the
 * whole consent with `unauthorized_scope_error`), so it reads the Profile API's `GET /v2/me` with the
 * `r_basicprofile` that product grants (docs/connectors.md, "LinkedIn apps").
 */

/** Scopes per connector: the reporting ones (docs/connectors.md) plus what reads the member's name. */
export const LINKEDIN_SCOPES: Record<string, readonly string[]> = {
  linkedinAds: ["r_ads", "r_ads_reporting", "openid", "profile"],
  linkedinSocial: ["r_organization_social", "rw_organization_admin", "r_basicprofile"],
};

/** OpenID Connect userinfo: `sub` always; `name` (or given and family names) with the `profile` scope. */
const ZUserInfo = z.object({
  sub: z.string(),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
});

/** The Profile API's member (`r_basicprofile`): the person id and the names in the member's own language. */
const ZMe = z.object({
  id: z.string(),
  localizedFirstName: z.string().optional(),
  localizedLastName: z.string().optional(),
});

/** Which app each connector signs in with (./settings.ts): Social's must carry the Community Management API alone. */
export const LINKEDIN_APP_OF: Record<string, "ads" | "social"> = { linkedinAds: "ads", linkedinSocial: "social" };

/** The app a connector signs in with. */
export const linkedinAppOf = (config: LinkedInProviderConfig, connector: string): LinkedInApp =>
  config[LINKEDIN_APP_OF[connector] ?? "ads"];

/** The variables a connector's app lacks (the catalogue names them). */
export function missingLinkedInConfig(app: LinkedInApp): string[] {
  return [app.clientId ? null : app.variables[0], app.clientSecret ? null : app.variables[1]].filter(
    (name): name is string => name !== null,
  );
}

/** One adapter per app and counters store (one per server process). */
const adapters = new WeakMap<LinkedInApp, WeakMap<RateLimitStore, LinkedInOAuth>>();

export function linkedinOAuth(config: LinkedInProviderConfig, app: LinkedInApp, counters: RateLimitStore) {
  let perStore = adapters.get(app);
  if (!perStore) {
    perStore = new WeakMap();
    adapters.set(app, perStore);
  }
  const made = perStore.get(counters);
  if (made) return made;
  const auth = config.authUrl.replace(/\/+$/, "");
  const standard = standardOAuth2({
    provider: "linkedin-oauth",
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    clientVariables: [...app.variables],
    authUrl: `${auth}/oauth/v2/authorization`,
    tokenUrl: `${auth}/oauth/v2/accessToken`,
    scopes: LINKEDIN_SCOPES,
    scopeSeparator: " ",
    clientAuth: "form",
    counters,
  });
  // userinfo and /v2/me live on the API host, not the auth host: a client of its own.
  const api = userinfoClient(config, counters);

  const adapter = {
    authorizeUrl: standard.authorizeUrl,

    /** The code for tokens, then the member's name for the source's account. */
    async exchange(input: Parameters<OAuthAdapter["exchange"]>[0]) {
      const { tokens } = await standard.exchangeCode(input);
      const headers = { authorization: `Bearer ${tokens.access_token}` };
      if (app === config.social) {
        const me = await api.request({ path: "/v2/me", headers, schema: ZMe });
        const name = [me.localizedFirstName, me.localizedLastName].filter(Boolean).join(" ");
        return { tokens: { ...tokens, member: me.id }, account: name || me.id };
      }
      const me = await api.request({ path: "/v2/userinfo", headers, schema: ZUserInfo });
      const name = me.name || [me.given_name, me.family_name].filter(Boolean).join(" ");
      return { tokens: { ...tokens, member: me.sub }, account: name || me.sub };
    },

    /**
     * A live access token for a source: the stored one, or one refreshed with the stored refresh token
     * (written back through `save`); an `auth` failure when it expired and LinkedIn gave no refresh token.
     */
    accessToken(
      credentials: Readonly<Record<string, string>>,
      save: (next: StandardTokens) => Promise<void>,
      now: number,
    ): Promise<string> {
      return standard.accessToken(credentials, save, now);
    },

    /**
     * Gives the grant back when the source is deleted: `POST /oauth/v2/revoke` with the token and the
     * client in the form (RFC 7009's shape, LinkedIn's token revocation). A token already dead is fine.
     */
    async revoke(credentials: Readonly<Record<string, string>>): Promise<void> {
      const token = credentials.access_token;
      if (!token || !app.clientId || !app.clientSecret) return;
      await standard.tokenClient
        .request({
          method: "POST",
          path: new URL(`${auth}/oauth/v2/revoke`).pathname,
          form: { token, client_id: app.clientId, client_secret: app.clientSecret },
          schema: z.unknown(),
        })
        .catch((error) => {
          if (!(error instanceof ProviderError) || (error.kind !== "auth" && error.kind !== "input")) throw error;
        });
    },
  };
  perStore.set(counters, adapter);
  return adapter;
}

export type LinkedInOAuth = {
  authorizeUrl: OAuthAdapter["authorizeUrl"];
  exchange: OAuthAdapter["exchange"];
  accessToken(
    credentials: Readonly<Record<string, string>>,
    save: (next: StandardTokens) => Promise<void>,
    now: number,
  ): Promise<string>;
  revoke(credentials: Readonly<Record<string, string>>): Promise<void>;
};

/** The API host's client for the sign-in's own call (userinfo or /v2/me), one per configuration. */
const userinfoClients = new WeakMap<LinkedInProviderConfig, ProviderClient>();
function userinfoClient(config: LinkedInProviderConfig, counters: RateLimitStore): ProviderClient {
  let client = userinfoClients.get(config);
  if (!client) {
    client = createProviderClient({
      provider: "linkedin-oauth",
      baseUrl: config.apiUrl,
      classify: classifyByStatusWithMessage,
      counters,
      attempts: 2,
    });
    userinfoClients.set(config, client);
  }
  return client;
}
