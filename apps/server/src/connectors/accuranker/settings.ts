import { z } from "zod";
import { defineSettings } from "../settings";

/** AccuRanker: the OAuth client and https://app.accuranker.com (API v4 and OAuth). */
export interface AccuRankerProviderConfig {
  clientId: string | null;
  clientSecret: string | null;
  url: string;
}

declare module "../settings" {
  interface ProvidersConfig {
    accuranker: AccuRankerProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const accurankerSettings = defineSettings({
  name: "accuranker",
  env: {
    // AccuRanker OAuth app; without both, the catalogue shows AccuRanker as not configured on this server.
    // The consent screen (/oauth/authorize/), token endpoint (/oauth/token/) and API v4 (/api/v4/…) share
    // one host.
    ACCURANKER_CLIENT_ID: z.string().optional(),
    ACCURANKER_CLIENT_SECRET: z.string().optional(),
    ACCURANKER_URL: z.url().default("https://app.accuranker.com"),
  },
  read: (e): AccuRankerProviderConfig => ({
    clientId: e.ACCURANKER_CLIENT_ID || null,
    clientSecret: e.ACCURANKER_CLIENT_SECRET || null,
    url: e.ACCURANKER_URL,
  }),
});
