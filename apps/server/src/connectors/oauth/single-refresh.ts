import type { SourceHandle } from "../types";
import type { StandardOAuth2, StandardTokens } from "./standard";

/**
 * One refresh per source and refresh token in this process: a dashboard asks a source for several
 * widgets (and the comparison period) at once, and each would otherwise refresh the same expired token.
 * Providers that rotate refresh tokens (AccuRanker) refuse the second refresh with `invalid_grant`,
 * which would mark the source invalid; the others would be asked twice for nothing. Waiters share the
 * first refresh, and its result stays a minute for requests that loaded the credentials before it was
 * written back (they still hold the old refresh token). Across processes the written-back tokens are
 * found by the next load.
 */
const recent = new Map<string, Promise<string>>();
const KEEP_MS = 60_000;

export function sharedAccessToken(
  oauth: StandardOAuth2,
  source: SourceHandle,
  keep: Record<string, string> = {},
): Promise<string> {
  const key = `${source.id}:${source.credentials.refresh_token ?? ""}`;
  const known = recent.get(key);
  if (known) return known;
  let refreshed = false;
  const started = oauth.accessToken(
    source.credentials,
    async (next: StandardTokens) => {
      refreshed = true;
      await source.saveCredentials({ ...next, ...keep });
    },
    Date.now(),
  );
  recent.set(key, started);
  const forget = () => recent.delete(key);
  started.then(() => {
    // A token that was still valid needed no refresh: nothing to share beyond this call.
    if (!refreshed) forget();
    else setTimeout(forget, KEEP_MS).unref();
  }, forget);
  return started;
}
