import { z } from "zod";
import { defineSettings } from "../settings";

/** Ahrefs API v3: https://api.ahrefs.com (paths start with /v3). */
export interface AhrefsProviderConfig {
  apiUrl: string;
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
  },
  read: (e): AhrefsProviderConfig => ({ apiUrl: e.AHREFS_API_URL }),
});
