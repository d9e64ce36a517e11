import { z } from "zod";
import { defineSettings } from "../settings";

/** Serpstat's API v4: https://api.serpstat.com. */
export interface SerpstatProviderConfig {
  apiUrl: string;
}

declare module "../settings" {
  interface ProvidersConfig {
    serpstat: SerpstatProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const serpstatSettings = defineSettings({
  name: "serpstat",
  env: {
    // Serpstat's API v4 (JSON-RPC at `/v4/?token=…`; the user's token is the login).
    SERPSTAT_API_URL: z.url().default("https://api.serpstat.com"),
  },
  read: (e): SerpstatProviderConfig => ({ apiUrl: e.SERPSTAT_API_URL }),
});
