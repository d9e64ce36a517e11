import { z } from "zod";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import type { Classifier } from "../http/classify";
import { createProviderClient, type ProviderClient } from "../http/client";
import { ProviderError } from "../http/errors";
import type { OAuthAuthorizeInput } from "./adapter";

/**
 * The plain authorization-code grant of RFC 6749 with refresh (RFC 6749 §6), as LinkedIn, Base CRM and
 * AccuRanker speak it: a consent address with client_id, redirect_uri, scope and state; a form POST to
 * the token endpoint; `{access_token, expires_in, refresh_token}` back. A provider adapter builds one of
 * these with its addresses and quirks, and adds what is its own (the account's name, revocation).
 */
export interface StandardOAuthOptions {
  /** Provider name for errors and counters ("linkedin-oauth"). */
  provider: string;
  clientId: string | null;
  clientSecret: string | null;
  /** The variables that hold the client, named in the error when they are unset. */
  clientVariables: [string, string];
  authUrl: string;
  tokenUrl: string;
  /** Scopes per connector key. */
  scopes: Record<string, readonly string[]>;
  scopeSeparator?: " " | ",";
  /** Send the PKCE challenge and verifier (providers that support it). */
  pkce?: boolean;
  /** How the client authenticates at the token endpoint: in the form (default) or HTTP Basic (RFC 6749 §2.3.1). */
  clientAuth?: "form" | "basic";
  /** Extra parameters of the consent address (`prompt`, `access_type` …). */
  authorizeParams?: Record<string, string>;
  /** Headers every token request carries (Base CRM refuses requests without a User-Agent). */
  headers?: Record<string, string>;
  counters: RateLimitStore;
}

/** The stored credentials of a standard OAuth source (sealed in the sources table). */
export type StandardTokens = {
  access_token: string;
  /** "" when the provider gave none (the source must be connected again once the access token expires). */
  refresh_token: string;
  /** Epoch milliseconds, as text; "" when the token does not expire. */
  expires_at: string;
};

export const ZStandardTokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().int().positive().optional(),
  refresh_token: z.string().min(1).optional(),
  refresh_token_expires_in: z.coerce.number().int().positive().optional(),
  scope: z.string().optional(),
  token_type: z.string().optional(),
});
export type TStandardTokenAnswer = z.infer<typeof ZStandardTokenAnswer>;

/**
 * RFC 6749 §5.2 errors: `invalid_grant` is a code or refresh token that was used, revoked or expired —
 * the user must connect again (`auth`). A wrong client is the operator's problem (`server`).
 */
export const classifyTokenEndpoint: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  const body = (answer.body && typeof answer.body === "object" ? answer.body : {}) as Record<string, unknown>;
  const code = typeof body.error === "string" ? body.error : `HTTP ${answer.status}`;
  const description = body.error_description ?? body.message;
  const detail = `${code}${typeof description === "string" ? `: ${description}` : ""}`;
  if (code === "invalid_grant" || code === "invalid_token")
    return new ProviderError(provider, "auth", detail, { httpStatus: answer.status });
  if (answer.status === 429) return new ProviderError(provider, "rate", detail, { httpStatus: 429 });
  return new ProviderError(provider, answer.status >= 500 ? "server" : "input", detail, {
    httpStatus: answer.status,
    retryable: answer.status >= 500,
  });
};

/** Tokens refreshed this long before they expire, so a request never starts with a dying one. */
const REFRESH_MARGIN_MS = 60_000;

/** One token client per counters store and token endpoint (one per process): its limits act across requests. */
const clients = new WeakMap<RateLimitStore, Map<string, ProviderClient>>();

export function standardOAuth2(options: StandardOAuthOptions) {
  const endpoint = new URL(options.tokenUrl);
  const clientKey = `${options.provider} ${endpoint.origin}`;
  let perStore = clients.get(options.counters);
  if (!perStore) {
    perStore = new Map();
    clients.set(options.counters, perStore);
  }
  let tokens = perStore.get(clientKey);
  if (!tokens) {
    tokens = createProviderClient({
      provider: options.provider,
      baseUrl: endpoint.origin,
      classify: classifyTokenEndpoint,
      counters: options.counters,
      attempts: 2,
    });
    perStore.set(clientKey, tokens);
  }
  const tokenClient = tokens;

  function client(): { id: string; secret: string } {
    if (!options.clientId || !options.clientSecret) {
      throw new ProviderError(options.provider, "server", `${options.clientVariables.join(" and ")} are not set`);
    }
    return { id: options.clientId, secret: options.clientSecret };
  }

  /** One POST to the token endpoint with the client authenticated the provider's way. */
  async function tokenRequest(form: Record<string, string>): Promise<TStandardTokenAnswer> {
    const { id, secret } = client();
    const basic = options.clientAuth === "basic";
    return tokenClient.request({
      method: "POST",
      path: `${endpoint.pathname}${endpoint.search}`,
      form: basic ? form : { ...form, client_id: id, client_secret: secret },
      headers: {
        accept: "application/json",
        ...options.headers,
        ...(basic ? { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}` } : {}),
      },
      schema: ZStandardTokenAnswer,
    });
  }

  const stored = (answer: TStandardTokenAnswer, refreshToken: string, now: number): StandardTokens => ({
    access_token: answer.access_token,
    refresh_token: answer.refresh_token ?? refreshToken,
    expires_at: answer.expires_in ? String(now + answer.expires_in * 1000) : "",
  });

  return {
    tokenClient,

    authorizeUrl(input: OAuthAuthorizeInput): string {
      const url = new URL(options.authUrl);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("client_id", options.clientId ?? "");
      url.searchParams.set("redirect_uri", input.redirectUri);
      const scopes = options.scopes[input.connector] ?? [];
      if (scopes.length > 0) url.searchParams.set("scope", scopes.join(options.scopeSeparator ?? " "));
      url.searchParams.set("state", input.state);
      if (options.pkce) {
        url.searchParams.set("code_challenge", input.codeChallenge);
        url.searchParams.set("code_challenge_method", "S256");
      }
      for (const [name, value] of Object.entries(options.authorizeParams ?? {})) url.searchParams.set(name, value);
      return url.toString();
    },

    /** The callback's code for tokens (the answer as the provider gave it, and the stored form). */
    async exchangeCode(input: { code: string; codeVerifier: string; redirectUri: string; now: number }) {
      const answer = await tokenRequest({
        grant_type: "authorization_code",
        code: input.code,
        redirect_uri: input.redirectUri,
        ...(options.pkce ? { code_verifier: input.codeVerifier } : {}),
      });
      return { answer, tokens: stored(answer, "", input.now) };
    },

    /**
     * A usable access token for stored credentials: the stored one while it lives; otherwise a refreshed
     * one, written back through `save` before it is used (the next request, in any process, finds it).
     * Without a refresh token an expired access token is an `auth` failure: the user connects again.
     */
    async accessToken(
      credentials: Readonly<Record<string, string>>,
      save: (next: StandardTokens) => Promise<void>,
      now: number,
    ): Promise<string> {
      const expiresAt = credentials.expires_at ? Number(credentials.expires_at) : Number.POSITIVE_INFINITY;
      if (credentials.access_token && expiresAt - REFRESH_MARGIN_MS > now) return credentials.access_token;
      const refreshToken = credentials.refresh_token;
      if (!refreshToken) {
        throw new ProviderError(options.provider, "auth", "the sign-in expired and there is no refresh token");
      }
      const next = stored(
        await tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken }),
        refreshToken,
        now,
      );
      await save(next);
      return next.access_token;
    },
  };
}

export type StandardOAuth2 = ReturnType<typeof standardOAuth2>;
