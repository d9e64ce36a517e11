import type { ProvidersConfig } from "../../infra/config";
import { classifyMeta } from "../http/classify";
import { createProviderClient } from "../http/client";
import { perRuntime } from "../http/per-runtime";
import { graphAuth, metaOAuth, missingMetaConfig } from "../oauth/meta";
import type { SourceHandle } from "../types";

/**
 * What the Meta connectors (Facebook Ads, Facebook Social, Instagram) share: one Graph API client per
 * server process, the app's configuration check, and the signed-in user's token for a source.
 */

/** The Graph API (graph.facebook.com): Meta's error object and throttling codes, usage headers read for the wait. */
export const metaGraph = perRuntime((runtime) =>
  createProviderClient({
    provider: "meta",
    baseUrl: runtime.providers.meta.graphUrl,
    classify: classifyMeta,
    counters: runtime.counters,
    concurrency: 5,
  }),
);

/** The variables every Meta connector needs. */
export function missingMeta(providers: ProvidersConfig): string[] {
  return missingMetaConfig(providers.meta);
}

/** The version path segment every Graph call starts with ("/v25.0"). */
export const graphVersion = (source: SourceHandle) => `/${source.runtime.providers.meta.version}`;

/** A source's long-lived user token (an `auth` failure once it expired), as headers and query for a Graph call. */
export function metaUserAuth(source: SourceHandle) {
  const meta = source.runtime.providers.meta;
  const token = metaOAuth(meta, source.runtime.counters).userToken(source.credentials, Date.now());
  return graphAuth(meta, token);
}
