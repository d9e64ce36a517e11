import { z } from "zod";
import { createProviderClient } from "../http/client";
import { ProviderError } from "../http/errors";
import { perRuntime } from "../http/per-runtime";
import type { CredentialsCheck } from "../types";
import { classifyMeta } from "./classify";
import { graphAuth, META_SCOPES, type MetaTokens } from "./oauth";

/**
 * A System User token pasted in instead of Facebook Login (docs/connectors.md, "Meta tokens"): an
 * agency's Business Manager issues it to a system user that has this server's app installed, and it
 * does not expire unless it was generated as a 60-day one. It is checked with `GET /debug_token`, asked
 * with the app's own token (app id|secret): valid, issued for this app (calls carry `appsecret_proof`
 * of this app's secret), of type SYSTEM_USER (a personal user token lasts an hour or 60 days and belongs
 * to Facebook Login), with the permissions the connector reads with. `expires_at` 0 means never.
 */

const ZDebugToken = z.object({
  data: z.object({
    app_id: z.coerce.string().optional(),
    type: z.string().optional(),
    is_valid: z.boolean(),
    expires_at: z.coerce.number().optional(),
    scopes: z.array(z.string()).optional(),
    user_id: z.coerce.string().optional(),
    error: z.object({ message: z.string().optional() }).optional(),
  }),
});
const ZMe = z.object({ id: z.string(), name: z.string().optional() });

/** Asked once while a form waits: a short limit, one attempt (Connector.verify). */
const checkClient = perRuntime((runtime) =>
  createProviderClient({
    provider: "meta",
    baseUrl: runtime.providers.meta.graphUrl,
    classify: classifyMeta,
    counters: runtime.counters,
    attempts: 1,
    timeoutMs: 10_000,
  }),
);

/** Facebook Login's data permissions of a connector (business_management only lists businesses at sign-in). */
export function systemUserScopes(connector: string): string[] {
  return (META_SCOPES[connector] ?? []).filter((scope) => scope !== "business_management");
}

/** Checks a pasted System User token for `connector`; answers the credentials to store and the account. */
export async function verifySystemUserToken(
  connector: string,
  { credentials, runtime }: CredentialsCheck,
): Promise<{ account: string; credentials: MetaTokens & { token_kind: string } }> {
  const config = runtime.providers.meta;
  const token = (credentials.token ?? "").trim();
  if (!config.appId || !config.appSecret) {
    throw new ProviderError("meta", "server", "META_APP_ID and META_APP_SECRET are not set");
  }
  const api = checkClient(runtime);
  const v = `/${config.graphVersion}`;
  const debug = await api.request({
    path: `${v}/debug_token`,
    query: { input_token: token },
    // The app's own token (id|secret), in the header so it stays out of logged addresses.
    headers: { authorization: `Bearer ${config.appId}|${config.appSecret}` },
    schema: ZDebugToken,
  });
  const data = debug.data;
  if (!data.is_valid) {
    throw new ProviderError("meta", "auth", data.error?.message ?? "the token is not valid (expired or revoked)");
  }
  if (data.app_id && data.app_id !== config.appId) {
    throw new ProviderError(
      "meta",
      "input",
      `the token was generated for another app (${data.app_id}); generate it for app ${config.appId}`,
    );
  }
  if (data.type !== "SYSTEM_USER") {
    throw new ProviderError(
      "meta",
      "input",
      `this is a ${(data.type ?? "unknown").toLowerCase()} token, not a System User token; generate one in Business Settings → System users, or connect with Facebook instead`,
    );
  }
  const missing = systemUserScopes(connector).filter((scope) => !(data.scopes ?? []).includes(scope));
  if (missing.length > 0) {
    throw new ProviderError("meta", "input", `the token lacks the permission ${missing.join(", ")}`);
  }
  const auth = graphAuth(config, token);
  const me = await api.request({
    path: `${v}/me`,
    query: { fields: "id,name", ...auth.query },
    headers: auth.headers,
    schema: ZMe,
  });
  const expiresAt = data.expires_at ?? 0;
  return {
    account: me.name ?? me.id,
    credentials: {
      access_token: token,
      // Meta's seconds; 0 is a token that never expires, stored as "" like a login without expiry.
      expires_at: expiresAt > 0 ? String(expiresAt * 1000) : "",
      user_id: me.id,
      token_kind: "system_user",
    },
  };
}
