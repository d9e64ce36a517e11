import { ProviderError } from "../http/errors";

/**
 * The API key or token stored with an API-key source. A source without one is an `auth` failure
 * (the source turns invalid and asks to be reconnected), never a request sent without a key.
 */
export function storedToken(credentials: Readonly<Record<string, string>>, provider: string): string {
  const token = credentials.token ?? "";
  if (!token) throw new ProviderError(provider, "auth", "no API key stored for this source");
  return token;
}
