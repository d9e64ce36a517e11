import { z } from "zod";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import type { Classifier } from "../http/classify";
import { createProviderClient } from "../http/client";
import { ProviderError } from "../http/errors";
import type { GoogleProviderConfig } from "./settings";

/**
 * Google's OAuth 2 for the Google connectors (docs/connectors.md): the authorization-code flow with
 * PKCE (S256), `access_type=offline` and `prompt=consent` so a refresh token always comes back (Google
 * only returns one on the first consent otherwise), refresh with write-back, revoke on delete.
 */

/** Scopes per connector: read-only, the least each one needs. */
export const GOOGLE_SCOPES: Record<string, string[]> = {
  googleAnalytics: ["https://www.googleapis.com/auth/analytics.readonly", "openid", "email"],
  searchConsole: ["https://www.googleapis.com/auth/webmasters.readonly", "openid", "email"],
  // Values need spreadsheets.readonly; the spreadsheet picker lists files by name with drive.metadata.readonly
  // (a restricted scope: Google's verification of the app is needed before public use; docs/connectors.md).
  googleSheets: [
    "https://www.googleapis.com/auth/spreadsheets.readonly",
    "https://www.googleapis.com/auth/drive.metadata.readonly",
    "openid",
    "email",
  ],
  // Business Profile has no read-only scope: `business.manage` is the only one its APIs accept.
  googleMyBusiness: ["https://www.googleapis.com/auth/business.manage", "openid", "email"],
  // Google Ads has no read-only scope: `adwords` is the only one its API accepts.
  googleAds: ["https://www.googleapis.com/auth/adwords", "openid", "email"],
};

/** The stored credentials of a Google source (sealed in the sources table). */
export type GoogleTokens = {
  access_token: string;
  refresh_token: string;
  /** Epoch milliseconds, as text (credentials are a string map). */
  expires_at: string;
};

const ZTokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().int().positive().optional(),
  refresh_token: z.string().min(1).optional(),
  id_token: z.string().optional(),
  scope: z.string().optional(),
  token_type: z.string().optional(),
});

/**
 * The token endpoint answers `{error, error_description}`: `invalid_grant` is a refresh token that was
 * revoked, expired (apps in Testing status lose them after 7 days) or never valid — the user must
 * connect again. A bad client is the operator's problem, not the user's: `server`.
 */
const classifyToken: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  const body = (answer.body && typeof answer.body === "object" ? answer.body : {}) as Record<string, unknown>;
  const code = typeof body.error === "string" ? body.error : `HTTP ${answer.status}`;
  const detail = `${code}${typeof body.error_description === "string" ? `: ${body.error_description}` : ""}`;
  if (code === "invalid_grant") return new ProviderError(provider, "auth", detail, { httpStatus: answer.status });
  if (answer.status === 429) return new ProviderError(provider, "rate", detail, { httpStatus: 429 });
  return new ProviderError(provider, answer.status >= 500 ? "server" : "input", detail, {
    httpStatus: answer.status,
    retryable: answer.status >= 500,
  });
};

/** The part of an OpenID id_token we read: the account's e-mail, shown as the source's account. */
function emailOf(idToken: string | undefined): string | null {
  const payload = idToken?.split(".")[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { email?: unknown };
    return typeof claims.email === "string" ? claims.email : null;
  } catch {
    return null;
  }
}

/** Tokens refreshed this long before they expire, so a request never starts with a dying one. */
const REFRESH_MARGIN_MS = 60_000;

export function googleOAuth(config: GoogleProviderConfig, counters: RateLimitStore) {
  const tokenEndpoint = new URL(config.tokenUrl);
  const tokens = createProviderClient({
    provider: "google-oauth",
    baseUrl: tokenEndpoint.origin,
    classify: classifyToken,
    counters,
    attempts: 2,
  });
  const client = () => {
    if (!config.clientId || !config.clientSecret) {
      throw new ProviderError("google-oauth", "server", "GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are not set");
    }
    return { client_id: config.clientId, client_secret: config.clientSecret };
  };
  const stored = (answer: z.infer<typeof ZTokenAnswer>, refreshToken: string, now: number): GoogleTokens => ({
    access_token: answer.access_token,
    refresh_token: answer.refresh_token ?? refreshToken,
    expires_at: String(now + (answer.expires_in ?? 3600) * 1000),
  });

  return {
    /** The consent screen's address for one connector. */
    authorizeUrl(input: { connector: string; state: string; codeChallenge: string; redirectUri: string }): string {
      const url = new URL(config.authUrl);
      url.searchParams.set("client_id", config.clientId ?? "");
      url.searchParams.set("redirect_uri", input.redirectUri);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("scope", (GOOGLE_SCOPES[input.connector] ?? []).join(" "));
      url.searchParams.set("access_type", "offline");
      url.searchParams.set("prompt", "consent");
      url.searchParams.set("include_granted_scopes", "true");
      url.searchParams.set("state", input.state);
      url.searchParams.set("code_challenge", input.codeChallenge);
      url.searchParams.set("code_challenge_method", "S256");
      return url.toString();
    },

    /** The code from the callback, exchanged for tokens; the account is the Google account's e-mail. */
    async exchange(input: { code: string; codeVerifier: string; redirectUri: string; now: number }) {
      const answer = await tokens.request({
        method: "POST",
        path: tokenEndpoint.pathname,
        form: {
          ...client(),
          grant_type: "authorization_code",
          code: input.code,
          code_verifier: input.codeVerifier,
          redirect_uri: input.redirectUri,
        },
        schema: ZTokenAnswer,
      });
      if (!answer.refresh_token) {
        throw new ProviderError("google-oauth", "auth", "Google gave no refresh token; connect again and allow access");
      }
      return { tokens: stored(answer, answer.refresh_token, input.now), account: emailOf(answer.id_token) };
    },

    /**
     * A usable access token for stored credentials: the stored one while it lives, otherwise a new one,
     * written back through `save` before it is used (the next request, in any process, finds it).
     */
    async accessToken(
      credentials: Readonly<Record<string, string>>,
      save: (next: GoogleTokens) => Promise<void>,
      now: number,
    ): Promise<string> {
      const expiresAt = Number(credentials.expires_at ?? 0);
      if (credentials.access_token && expiresAt - REFRESH_MARGIN_MS > now) return credentials.access_token;
      const refreshToken = credentials.refresh_token;
      if (!refreshToken) throw new ProviderError("google-oauth", "auth", "no refresh token stored");
      const answer = await tokens.request({
        method: "POST",
        path: tokenEndpoint.pathname,
        form: { ...client(), grant_type: "refresh_token", refresh_token: refreshToken },
        schema: ZTokenAnswer,
      });
      const next = stored(answer, refreshToken, now);
      await save(next);
      return next.access_token;
    },

    /** Revokes the grant (on source delete); a token already dead is fine. */
    async revoke(credentials: Readonly<Record<string, string>>): Promise<void> {
      const token = credentials.refresh_token ?? credentials.access_token;
      if (!token) return;
      const revokeEndpoint = new URL(config.revokeUrl);
      const revoker = createProviderClient({
        provider: "google-oauth",
        baseUrl: revokeEndpoint.origin,
        counters,
        attempts: 1,
        timeoutMs: 5000,
      });
      await revoker
        .request({ method: "POST", path: revokeEndpoint.pathname, form: { token }, schema: z.unknown() })
        .catch((error) => {
          if (!(error instanceof ProviderError) || error.kind !== "input") throw error;
        });
    },
  };
}

export type GoogleOAuth = ReturnType<typeof googleOAuth>;
