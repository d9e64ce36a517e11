import type { ProvidersConfig } from "../../infra/config";
import type { OAuthAdapterFactory } from "../oauth/adapter";
import type { SourceHandle } from "../types";
import { googleOAuth } from "./oauth";

/** The variables every Google connector needs: one OAuth client for all of them. */
export function missingGoogleConfig(providers: ProvidersConfig): string[] {
  return [
    providers.google.clientId ? null : "GOOGLE_CLIENT_ID",
    providers.google.clientSecret ? null : "GOOGLE_CLIENT_SECRET",
  ].filter((name): name is string => name !== null);
}

/** The Authorization header for a Google source: its access token, refreshed and stored when it expired. */
export async function googleAuthorization(source: SourceHandle): Promise<Record<string, string>> {
  const oauth = googleOAuth(source.runtime.providers.google, source.runtime.counters);
  const token = await oauth.accessToken(source.credentials, (next) => source.saveCredentials({ ...next }), Date.now());
  return { authorization: `Bearer ${token}` };
}

/** The OAuth adapter that connects this family's connectors (`Connector.oauth`), built from the server's configuration. */
export const googleOAuthAdapter: OAuthAdapterFactory = (providers, counters) => googleOAuth(providers.google, counters);
