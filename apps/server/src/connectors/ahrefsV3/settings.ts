import { z } from "zod";
import { defineSettings } from "../settings";

/** Ahrefs API v3: https://api.ahrefs.com (paths start with /v3). */
export interface AhrefsProviderConfig {
  apiUrl: string;
  /** Mission Control's server key (MC_AHREFS_KEY) and its base URL; null without a key (domain-metrics.ts). */
  serverKey: { key: string; apiUrl: string } | null;
}

declare module "../settings" {
  interface ProvidersConfig {
    ahrefs: AhrefsProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const ahrefsSettings = defineSettings({
  name: "ahrefs",
  env: {
    // Ahrefs API v3 (Site Explorer, Rank Tracker, Management, Subscription info; paths carry `/v3`; the
    // user's API key is the login, sent as a Bearer token).
    AHREFS_API_URL: z.url().default("https://api.ahrefs.com"),
    // Mission Control's server SEO key (docs/decisions.md, "Mission Control metric sources"): an Ahrefs API v3 key of the operator's that lets a
    // group track any domain with no customer connection (the "ahrefs" metrics source). Unset: not offered.
    MC_AHREFS_KEY: z.string().min(1).optional(),
    MC_AHREFS_BASE_URL: z.url().default("https://api.ahrefs.com"),
  },
  read: (e): AhrefsProviderConfig => ({
    apiUrl: e.AHREFS_API_URL,
    serverKey: e.MC_AHREFS_KEY ? { key: e.MC_AHREFS_KEY, apiUrl: e.MC_AHREFS_BASE_URL } : null,
  }),
});
