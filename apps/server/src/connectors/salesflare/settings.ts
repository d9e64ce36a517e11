import { z } from "zod";
import { defineSettings } from "../settings";

/** Salesflare's API: https://api.salesflare.com. */
export interface SalesflareProviderConfig {
  apiUrl: string;
}

declare module "../settings" {
  interface ProvidersConfig {
    salesflare: SalesflareProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const salesflareSettings = defineSettings({
  name: "salesflare",
  env: {
    // Salesflare's API (opportunities, pipelines; the user's API key is the login, sent as a Bearer token).
    SALESFLARE_API_URL: z.url().default("https://api.salesflare.com"),
  },
  read: (e): SalesflareProviderConfig => ({ apiUrl: e.SALESFLARE_API_URL }),
});
