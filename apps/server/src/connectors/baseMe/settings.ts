import { z } from "zod";
import { defineSettings } from "../settings";

/** Base CRM (Zendesk Sell) for "Base.me": the OAuth client and https://api.getbase.com (API and OAuth). */
export interface BaseProviderConfig {
  clientId: string | null;
  clientSecret: string | null;
  apiUrl: string;
}

declare module "../settings" {
  interface ProvidersConfig {
    base: BaseProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const baseSettings = defineSettings({
  name: "base",
  env: {
    // Base CRM (Zendesk Sell) OAuth app for the "Base.me" connector (docs/decisions.md); without both, the
    // catalogue shows it as not configured on this server. The API, the consent screen and the token
    // endpoint share one host (https://api.getbase.com: /v2/…, /oauth2/authorize, /oauth2/token).
    BASE_CLIENT_ID: z.string().optional(),
    BASE_CLIENT_SECRET: z.string().optional(),
    BASE_API_URL: z.url().default("https://api.getbase.com"),
  },
  read: (e): BaseProviderConfig => ({
    clientId: e.BASE_CLIENT_ID || null,
    clientSecret: e.BASE_CLIENT_SECRET || null,
    apiUrl: e.BASE_API_URL,
  }),
});
