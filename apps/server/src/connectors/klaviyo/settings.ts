import { z } from "zod";
import { defineSettings } from "../settings";

/** Klaviyo: https://a.klaviyo.com and the `revision` header's date. */
export interface KlaviyoProviderConfig {
  apiUrl: string;
  revision: string;
}

declare module "../settings" {
  interface ProvidersConfig {
    klaviyo: KlaviyoProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const klaviyoSettings = defineSettings({
  name: "klaviyo",
  env: {
    // Klaviyo's API (the user's private key is the login, `Authorization: Klaviyo-API-Key …`) and the API
    // revision every request names in its `revision` header (Klaviyo keeps a revision two years).
    KLAVIYO_API_URL: z.url().default("https://a.klaviyo.com"),
    KLAVIYO_REVISION: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}(\.pre)?$/, "KLAVIYO_REVISION looks like 2025-10-15")
      .default("2025-10-15"),
  },
  read: (e): KlaviyoProviderConfig => ({ apiUrl: e.KLAVIYO_API_URL, revision: e.KLAVIYO_REVISION }),
});
