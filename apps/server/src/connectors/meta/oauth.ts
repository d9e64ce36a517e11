import { createHmac } from "node:crypto";
import { z } from "zod";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import type { Classifier } from "../http/classify";
import { createProviderClient, type ProviderClient } from "../http/client";
import { ProviderError } from "../http/errors";
import { classifyMeta } from "./classify";
import type { MetaProviderConfig } from "./settings";

/**
 * Meta's OAuth (Facebook Login for Business) for Facebook Ads, Facebook Social and Instagram
 * (docs/connectors.md): the consent dialog at www.facebook.com/{v}/dialog/oauth, then two GETs to
 * graph.facebook.com/{v}/oauth/access_token with the app secret in the query — the code for a
 * short-lived user token (an hour or two), that token for a long-lived one (about 60 days). There is
 * no refresh token: the long-lived token and its expiry are stored, and once it has expired the source
 * is invalid until the user connects again (banner 125). The redirect back carries `code` and `state`,
 * or `error=access_denied&error_reason=user_denied` when the user refused.
 *
 * No PKCE: Meta's web login for a confidential app (one with a secret, exchanging server-side) takes
 * no code_challenge; the app secret in the exchange and the single-use `state` bound to the signed-in
 * user (features/oauth) protect the code. The verifier the service makes is not sent.
 */

/** Permissions per connector: read-only, the least each one needs (docs/connectors.md). */
export const META_SCOPES: Record<string, string[]> = {
  facebookAds: ["ads_read", "read_insights", "business_management"],
  // business_management: `/me/accounts` leaves out Pages the user reaches through a Business portfolio
  // (an agency's clients' Pages); they are listed from the portfolios, which need it (./pages.ts).
  facebookSocial: ["pages_show_list", "pages_read_engagement", "read_insights", "business_management"],
  instagram: [
    "instagram_basic",
    "instagram_manage_insights",
    "pages_show_list",
    "pages_read_engagement",
    "business_management",
  ],
};

/** The stored credentials of a Meta source (sealed in the sources table). */
export type MetaTokens = {
  /** The long-lived user access token. */
  access_token: string;
  /** Epoch milliseconds, as text; "" when Meta said the token does not expire. */
  expires_at: string;
  /** The Facebook user the token belongs to. */
  user_id: string;
};

const ZTokenAnswer = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.coerce.number().int().positive().optional(),
});
const ZMe = z.object({ id: z.string(), name: z.string().optional() });

/**
 * The token endpoint answers Meta's error object: a used, expired or foreign code (100 with subcodes
 * 36007–36009) and a dead token (190) mean the user must sign in again; a wrong app id or secret
 * (101, 1) is the operator's problem, not the user's.
 */
const classifyToken: Classifier = (provider, answer) => {
  const failure = classifyMeta(provider, answer);
  if (failure?.kind !== "input") return failure;
  const code = Number((answer.body as { error?: { code?: unknown } } | null)?.error?.code);
  if (code === 101) return new ProviderError(provider, "server", failure.reason, { httpStatus: answer.status });
  return new ProviderError(provider, "auth", failure.reason, { httpStatus: answer.status });
};

/**
 * How a Graph request carries a token: the Authorization header (never in the address, so it stays out
 * of logs) and `appsecret_proof`, the token signed with the app secret, which Meta checks when the app
 * requires it (App settings → Advanced → "Require app secret") and accepts otherwise.
 */
export function graphAuth(
  config: MetaProviderConfig,
  token: string,
): { headers: Record<string, string>; query: Record<string, string> } {
  return {
    headers: { authorization: `Bearer ${token}` },
    query: config.appSecret
      ? { appsecret_proof: createHmac("sha256", config.appSecret).update(token).digest("hex") }
      : {},
  };
}

/** The variables every Meta connector needs: one app for all of them. */
export function missingMetaConfig(config: MetaProviderConfig): string[] {
  return [config.appId ? null : "META_APP_ID", config.appSecret ? null : "META_APP_SECRET"].filter(
    (name): name is string => name !== null,
  );
}

/** One token client per configuration (one per server process): its limits act across requests. */
const tokenClients = new WeakMap<MetaProviderConfig, ProviderClient>();

export function metaOAuth(config: MetaProviderConfig, counters: RateLimitStore) {
  let graph = tokenClients.get(config);
  if (!graph) {
    graph = createProviderClient({
      provider: "meta-oauth",
      baseUrl: config.graphUrl,
      classify: classifyToken,
      counters,
      attempts: 2,
    });
    tokenClients.set(config, graph);
  }
  const tokens = graph;
  const v = `/${config.graphVersion}`;
  const app = () => {
    if (!config.appId || !config.appSecret) {
      throw new ProviderError("meta-oauth", "server", "META_APP_ID and META_APP_SECRET are not set");
    }
    return { client_id: config.appId, client_secret: config.appSecret };
  };

  return {
    /** The consent dialog's address for one connector (Meta's scope list is comma-separated). */
    authorizeUrl(input: { connector: string; state: string; codeChallenge?: string; redirectUri: string }): string {
      const url = new URL(`${config.dialogUrl.replace(/\/+$/, "")}${v}/dialog/oauth`);
      url.searchParams.set("client_id", config.appId ?? "");
      url.searchParams.set("redirect_uri", input.redirectUri);
      url.searchParams.set("state", input.state);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("scope", (META_SCOPES[input.connector] ?? []).join(","));
      return url.toString();
    },

    /**
     * The code from the callback, exchanged for a short-lived token, that swapped for a long-lived one;
     * the account is the Facebook user's name.
     */
    async exchange(input: { code: string; redirectUri: string; now: number; codeVerifier?: string }) {
      const short = await tokens.request({
        path: `${v}/oauth/access_token`,
        query: { ...app(), redirect_uri: input.redirectUri, code: input.code },
        schema: ZTokenAnswer,
      });
      const long = await tokens.request({
        path: `${v}/oauth/access_token`,
        query: { ...app(), grant_type: "fb_exchange_token", fb_exchange_token: short.access_token },
        schema: ZTokenAnswer,
      });
      const auth = graphAuth(config, long.access_token);
      const me = await tokens.request({
        path: `${v}/me`,
        query: { fields: "id,name", ...auth.query },
        headers: auth.headers,
        schema: ZMe,
      });
      const stored: MetaTokens = {
        access_token: long.access_token,
        expires_at: long.expires_in ? String(input.now + long.expires_in * 1000) : "",
        user_id: me.id,
      };
      return { tokens: stored, account: me.name ?? me.id };
    },

    /**
     * The stored long-lived user token while it lives. Meta has no refresh: an expired one is an `auth`
     * failure (the source becomes invalid and the user reconnects).
     */
    userToken(credentials: Readonly<Record<string, string>>, now: number): string {
      const token = credentials.access_token;
      if (!token) throw new ProviderError("meta-oauth", "auth", "no Meta token stored; reconnect the source");
      const expiresAt = Number(credentials.expires_at || Number.POSITIVE_INFINITY);
      if (expiresAt <= now) {
        throw new ProviderError(
          "meta-oauth",
          "auth",
          `the Meta login expired on ${new Date(expiresAt).toISOString().slice(0, 10)}; reconnect the source`,
        );
      }
      return token;
    },

    /** Gives the grant back (on source delete): DELETE /me/permissions; a token already dead is fine. */
    async revoke(credentials: Readonly<Record<string, string>>): Promise<void> {
      const token = credentials.access_token;
      if (!token) return;
      const auth = graphAuth(config, token);
      await tokens
        .request({
          method: "DELETE",
          path: `${v}/me/permissions`,
          query: auth.query,
          headers: auth.headers,
          schema: z.unknown(),
        })
        .catch((error) => {
          if (!(error instanceof ProviderError) || (error.kind !== "auth" && error.kind !== "input")) throw error;
        });
    },
  };
}

export type MetaOAuth = ReturnType<typeof metaOAuth>;
