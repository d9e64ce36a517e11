import { z } from "zod";
import type { ProvidersConfig } from "../../infra/config";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import type { Classifier } from "../http/classify";
import { createProviderClient, type ProviderClient } from "../http/client";
import { ProviderError, parseRetryAfter } from "../http/errors";
import type { OAuthAdapter, OAuthAdapterFactory } from "../oauth/adapter";
import { standardOAuth2 } from "../oauth/standard";

/**
 * AccuRanker's OAuth 2 (docs/connectors.md): the consent screen at `/oauth/authorize/`, the token endpoint
 * `/oauth/token/` (authorization_code and refresh_token grants, client in the form), scope `read`. The
 * login may see several AccuRanker accounts, so the user types the one the source is for before the
 * consent screen (docs/product.md §3, `oauthAccount`); the exchange checks it against the accounts the
 * token sees (`GET /api/v4/accounts/?fields=id,name`) and stores the matched account's id beside the
 * tokens, so every picker and query of the source is scoped to it.
 */

type AccuRankerConfig = ProvidersConfig["accuranker"];

export const ACCURANKER_SCOPES: Record<string, string[]> = { accuranker: ["read"] };

export const accurankerOrigin = (config: AccuRankerConfig) => config.url.replace(/\/+$/, "");

/** `GET /api/v4/accounts/?fields=id,name`: the accounts the token can read (fields projected, as asked). */
export const ZAccuRankerAccounts = z.array(z.object({ id: z.coerce.string(), name: z.string().nullish() }));

/** The stored credentials of an AccuRanker source: the standard tokens and the account it is scoped to. */
export type AccuRankerTokens = {
  access_token: string;
  refresh_token: string;
  expires_at: string;
  account_id: string;
};

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** AccuRanker's words: DRF's `{detail}`, its plan refusals `{message}` or `{error}`, or a field's list. */
function accurankerMessage(body: unknown): string {
  const object = record(body);
  if (!object) return typeof body === "string" ? body.slice(0, 200) : "";
  for (const key of ["detail", "message", "error"]) {
    const value = object[key];
    if (typeof value === "string" && value) return value;
  }
  for (const [field, value] of Object.entries(object)) {
    if (Array.isArray(value) && typeof value[0] === "string") return `${field}: ${value[0]}`;
  }
  return "";
}

/**
 * AccuRanker's API (Django REST framework): 401 a token it does not know or that expired; 403 either a
 * permission the token lacks (the login's problem) or a plan without access to that endpoint ("The active
 * plan for this account does not allow access …": the widget's settings, not a dead login); 429 throttled
 * with Retry-After; 400 a field or period it refuses.
 */
export const classifyAccuRanker: Classifier = (provider, answer) => {
  if (answer.status >= 200 && answer.status < 300) return null;
  const message = accurankerMessage(answer.body) || `HTTP ${answer.status}`;
  const options = {
    httpStatus: answer.status,
    retryAfterMs: parseRetryAfter(answer.headers.get("retry-after"), answer.now),
  };
  if (answer.status === 401) return new ProviderError(provider, "auth", message, options);
  if (answer.status === 403) {
    return new ProviderError(provider, /plan/i.test(message) ? "input" : "auth", message, options);
  }
  if (answer.status === 429) return new ProviderError(provider, "rate", message, options);
  if (answer.status >= 500) return new ProviderError(provider, "server", message, options);
  return new ProviderError(provider, "input", message, options);
};

/** The variables the connector needs. */
export function missingAccuRankerConfig(config: AccuRankerConfig): string[] {
  return [
    config.clientId ? null : "ACCURANKER_CLIENT_ID",
    config.clientSecret ? null : "ACCURANKER_CLIENT_SECRET",
  ].filter((name): name is string => name !== null);
}

export function accurankerTokens(config: AccuRankerConfig, counters: RateLimitStore) {
  return standardOAuth2({
    provider: "accuranker-oauth",
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    clientVariables: ["ACCURANKER_CLIENT_ID", "ACCURANKER_CLIENT_SECRET"],
    authUrl: `${accurankerOrigin(config)}/oauth/authorize/`,
    tokenUrl: `${accurankerOrigin(config)}/oauth/token/`,
    scopes: ACCURANKER_SCOPES,
    counters,
  });
}

/** The accounts call of the exchange: one client per counters store (one per process). */
const accountClients = new WeakMap<RateLimitStore, Map<string, ProviderClient>>();
function accountsClient(config: AccuRankerConfig, counters: RateLimitStore): ProviderClient {
  let perStore = accountClients.get(counters);
  if (!perStore) {
    perStore = new Map();
    accountClients.set(counters, perStore);
  }
  const origin = accurankerOrigin(config);
  let found = perStore.get(origin);
  if (!found) {
    found = createProviderClient({
      provider: "accuranker",
      baseUrl: origin,
      classify: classifyAccuRanker,
      counters,
      attempts: 2,
      timeoutMs: 10_000,
    });
    perStore.set(origin, found);
  }
  return found;
}

/** The typed account among the token's: by id, or by name ignoring case and surrounding spaces. */
export function matchAccount(
  accounts: z.infer<typeof ZAccuRankerAccounts>,
  typed: string,
): z.infer<typeof ZAccuRankerAccounts>[number] | null {
  const wanted = typed.trim().toLowerCase();
  return (
    accounts.find((account) => account.id === typed.trim()) ??
    accounts.find((account) => (account.name ?? "").trim().toLowerCase() === wanted) ??
    null
  );
}

export function accurankerOAuth(config: AccuRankerConfig, counters: RateLimitStore): OAuthAdapter {
  const oauth = accurankerTokens(config, counters);
  return {
    authorizeUrl: (input) => oauth.authorizeUrl(input),

    async exchange(input) {
      const typed = input.account?.trim() ?? "";
      if (!typed) {
        throw new ProviderError("accuranker", "input", "Type the AccuRanker account to connect.", { field: "account" });
      }
      const { tokens } = await oauth.exchangeCode(input);
      const accounts = await accountsClient(config, counters).request({
        path: "/api/v4/accounts/",
        query: { fields: "id,name" },
        headers: { authorization: `Bearer ${tokens.access_token}`, accept: "application/json" },
        schema: ZAccuRankerAccounts,
      });
      const account = matchAccount(accounts, typed);
      if (!account) {
        throw new ProviderError("accuranker", "input", `This AccuRanker login has no account named ${typed}.`, {
          field: "account",
        });
      }
      const stored: AccuRankerTokens = { ...tokens, account_id: account.id };
      return { tokens: stored, account: account.name || account.id };
    },
  };
}

/** The OAuth adapter that connects this family's connectors (`Connector.oauth`), built from the server's configuration. */
export const accurankerOAuthAdapter: OAuthAdapterFactory = (providers, counters) =>
  accurankerOAuth(providers.accuranker, counters);
