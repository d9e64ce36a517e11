import { z } from "zod";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import type { Classifier, ProviderAnswer } from "../http/classify";
import { createProviderClient, type ProviderClient, type QuotaBucket } from "../http/client";
import { ProviderError, parseRetryAfter } from "../http/errors";
import type { OAuthAdapter, OAuthAdapterFactory, OAuthAuthorizeInput, OAuthExchangeInput } from "../oauth/adapter";
import type { TikTokProviderConfig } from "./settings";

/**
 * TikTok API for Business (v1.3) sign-in for TikTok Ads (docs/connectors.md). Not RFC 6749:
 * - the consent screen is `/portal/auth?app_id&state&redirect_uri` (the permissions are chosen in the
 *   developer app, not in the address) and sends the user back with `auth_code` (and `code`) + `state`;
 * - the exchange is a JSON POST of `{app_id, secret, auth_code}` to `/open_api/v1.3/oauth2/access_token/`,
 *   answered in TikTok's envelope `{code, message, request_id, data:{access_token, advertiser_ids, scope}}`;
 * - the advertiser token is long-lived: no expiry, no refresh token. It is stored as it is; once the user
 *   revokes it, every call answers code 40105 and the source becomes invalid (banner 125);
 * - `/open_api/v1.3/oauth2/revoke_token/` gives it back when the source is deleted.
 * No PKCE: TikTok takes none; the app secret in the exchange and the single-use state protect the code.
 */

/**
 * TikTok answers almost everything with HTTP 200 and says what went wrong in the body's `code`
 * ("the return code takes precedence over the HTTP status"). Codes from TikTok's return-code list,
 * https://business-api.tiktok.com/portal/docs?id=1737172488964097 (mirrored in api-evangelist/tiktok-ads
 * errors/tiktok-ads-error-codes.yml), and the rate limits page
 * https://business-api.tiktok.com/portal/docs/rate-limits/v1.3 (after a per-minute breach wait 5 minutes;
 * the daily count resets at 00:00 UTC).
 */
const RATE_CODES = new Set([40016, 40100, 40133]);
/** The user's grant: an expired, empty, invalid or revoked token, a core user gone, a used or expired auth code. */
const AUTH_CODES = new Set([40101, 40102, 40104, 40105, 40106, 40110, 40115, 40131]);
/** The developer app itself (blocked, wrong id or secret, profile not approved): the operator's to fix. */
const APP_CODES = new Set([40113, 40124]);
/** Asynchronous or write conflicts that a second try may resolve. */
const RETRY_CODES = new Set([40200, 40201, 40202, 50000, 50002, 51305, 60001]);

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The request path a throttled answer belongs to is not known here; the message says which count ran out. */
function rateFailure(provider: string, detail: string, now: number, status: number): ProviderError {
  if (/QPD|per day|daily/i.test(detail)) {
    return new ProviderError(provider, "quota", detail, { httpStatus: status, retryAfterMs: DAY_MS - (now % DAY_MS) });
  }
  if (/QPM|per minute/i.test(detail)) {
    return new ProviderError(provider, "rate", detail, { httpStatus: status, retryAfterMs: 5 * MINUTE_MS });
  }
  return new ProviderError(provider, "rate", detail, { httpStatus: status, retryAfterMs: 1000 });
}

export const classifyTikTok: Classifier = (provider, answer: ProviderAnswer) => {
  const body = answer.body && typeof answer.body === "object" ? (answer.body as Record<string, unknown>) : null;
  if (answer.status < 200 || answer.status >= 300) {
    // An HTTP error means the request never reached the API logic: a wrong path or a server fault.
    // (a wrong path is ours to fix, so it counts as the provider failing, never as the user's input).
    const kind = answer.status === 429 ? "rate" : "server";
    return new ProviderError(provider, kind, `HTTP ${answer.status}`, {
      httpStatus: answer.status,
      retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now),
      retryable: answer.status >= 500 || answer.status === 429,
    });
  }
  const code = Number(body?.code);
  if (!body || !Number.isFinite(code)) {
    return new ProviderError(provider, "server", "an answer without TikTok's envelope", {
      httpStatus: answer.status,
      retryable: false,
    });
  }
  // 0: success; 20001: partial success (the data that came is served).
  if (code === 0 || code === 20001) return null;
  const message = typeof body.message === "string" ? body.message : "";
  const detail = `${code}${message ? ` ${message}` : ""}`;
  const options = { httpStatus: answer.status };
  if (RATE_CODES.has(code)) return rateFailure(provider, detail, answer.now, answer.status);
  if (AUTH_CODES.has(code)) return new ProviderError(provider, "auth", detail, options);
  if (APP_CODES.has(code)) return new ProviderError(provider, "server", detail, { ...options, retryable: false });
  if (RETRY_CODES.has(code) || code >= 50000) return new ProviderError(provider, "server", detail, options);
  // 40000/40002 parameters, 40001 no permission, 40300/40301 an advertiser that is gone or not this
  // login's, and the rest of the 4xxxx: the widget's settings, in TikTok's words.
  return new ProviderError(provider, "input", message || detail, options);
};

/** TikTok's envelope around an answer's data (only `code: 0` reaches a schema: the rest is classified). */
export const tiktokEnvelope = <T extends z.ZodTypeAny>(data: T) =>
  z.object({ code: z.number(), message: z.string().optional(), request_id: z.string().optional(), data });

const ZToken = tiktokEnvelope(
  z.object({
    access_token: z.string().min(1),
    advertiser_ids: z.array(z.coerce.string()).default([]),
    scope: z.array(z.unknown()).optional(),
  }),
);
const ZUser = tiktokEnvelope(
  z.object({ display_name: z.string().optional(), email: z.string().optional(), core_user_id: z.string().optional() }),
);

/** The stored credentials of a TikTok source (sealed in the sources table). */
export type TikTokTokens = {
  /** The long-lived advertiser access token, sent as the `Access-Token` header. */
  access_token: string;
  /** The advertisers the user granted, comma-separated (the picker asks TikTok again). */
  advertiser_ids: string;
};

/**
 * The app's rate tier, counted before each call by every process (TikTok counts per developer app):
 * Basic is 10 per second and 600 per minute; a higher tier only loosens this.
 */
export const TIKTOK_APP_QUOTAS: readonly QuotaBucket[] = [
  { key: "app:second", max: 10, windowMs: 1000, kind: "rate" },
  { key: "app:minute", max: 600, windowMs: MINUTE_MS, kind: "rate" },
];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A client that keeps to the app's pace: when this server has spent the current second's 10 requests
 * (TIKTOK_APP_QUOTAS, counted by every process), the request waits for the next second instead of
 * failing — a second is short. A spent minute (600) is a `rate` failure: stored results are served.
 */
export function pacedClient(client: ProviderClient): ProviderClient {
  return {
    async request(request) {
      for (let tried = 1; ; tried++) {
        try {
          return await client.request(request);
        } catch (error) {
          const second =
            error instanceof ProviderError && error.kind === "rate" && error.reason.startsWith("app:second");
          if (!second || tried >= 5) throw error;
          await sleep(Math.max(50, error.retryAfterMs ?? 1000));
        }
      }
    },
  };
}

/** The variables TikTok needs. */
export function missingTikTokConfig(config: TikTokProviderConfig): string[] {
  return [config.appId ? null : "TIKTOK_APP_ID", config.appSecret ? null : "TIKTOK_APP_SECRET"].filter(
    (name): name is string => name !== null,
  );
}

/** The app id and secret, or a `server` failure naming the variables (the operator's to set). */
export function tiktokApp(config: TikTokProviderConfig): { app_id: string; secret: string } {
  if (!config.appId || !config.appSecret) {
    throw new ProviderError("tiktok-oauth", "server", "TIKTOK_APP_ID and TIKTOK_APP_SECRET are not set");
  }
  return { app_id: config.appId, secret: config.appSecret };
}

/** The stored token, or an `auth` failure (nothing stored: connect again). */
export function tiktokToken(credentials: Readonly<Record<string, string>>): string {
  const token = credentials.access_token;
  if (!token) throw new ProviderError("tiktok", "auth", "no TikTok token stored; reconnect the source");
  return token;
}

/** One token client per configuration (one per server process): its limits act across requests. */
const tokenClients = new WeakMap<TikTokProviderConfig, ProviderClient>();

export function tiktokOAuth(config: TikTokProviderConfig, counters: RateLimitStore): OAuthAdapter {
  let made = tokenClients.get(config);
  if (!made) {
    made = pacedClient(
      createProviderClient({
        provider: "tiktok-oauth",
        baseUrl: config.apiUrl,
        classify: classifyTikTok,
        counters,
        attempts: 2,
      }),
    );
    tokenClients.set(config, made);
  }
  const api = made;

  return {
    authorizeUrl(input: OAuthAuthorizeInput): string {
      const url = new URL(config.authUrl);
      url.searchParams.set("app_id", config.appId ?? "");
      url.searchParams.set("state", input.state);
      url.searchParams.set("redirect_uri", input.redirectUri);
      return url.toString();
    },

    /** The auth code for the long-lived token; the account is the TikTok for Business user's name. */
    async exchange(input: OAuthExchangeInput) {
      const answer = await api.request({
        method: "POST",
        path: "/open_api/v1.3/oauth2/access_token/",
        json: { ...tiktokApp(config), auth_code: input.code },
        schema: ZToken,
        quotas: TIKTOK_APP_QUOTAS,
      });
      const token = answer.data.access_token;
      // The user's name for the source list; a failure here must not lose a granted token.
      const user = await api
        .request({
          path: "/open_api/v1.3/user/info/",
          headers: { "access-token": token },
          schema: ZUser,
          quotas: TIKTOK_APP_QUOTAS,
        })
        .catch(() => null);
      const tokens: TikTokTokens = { access_token: token, advertiser_ids: answer.data.advertiser_ids.join(",") };
      return { tokens, account: user?.data.display_name || user?.data.email || null };
    },

    /** POST /oauth2/revoke_token/ on source delete; a token TikTok already refuses is fine. */
    async revoke(credentials: Readonly<Record<string, string>>): Promise<void> {
      const token = credentials.access_token;
      if (!token) return;
      await api
        .request({
          method: "POST",
          path: "/open_api/v1.3/oauth2/revoke_token/",
          json: { ...tiktokApp(config), access_token: token },
          schema: z.unknown(),
          quotas: TIKTOK_APP_QUOTAS,
        })
        .catch((error) => {
          if (!(error instanceof ProviderError) || (error.kind !== "auth" && error.kind !== "input")) throw error;
        });
    },
  };
}

/** The OAuth adapter that connects this family's connectors (`Connector.oauth`), built from the server's configuration. */
export const tiktokOAuthAdapter: OAuthAdapterFactory = (providers, counters) => tiktokOAuth(providers.tiktok, counters);
