import { z } from "zod";
import { defineSettings } from "../settings";

/** TikTok API for Business: the developer app, the API host and the consent screen. */
export interface TikTokProviderConfig {
  appId: string | null;
  appSecret: string | null;
  /** https://business-api.tiktok.com: the API and the token endpoint (paths start with /open_api/v1.3). */
  apiUrl: string;
  /** https://business-api.tiktok.com/portal/auth: the consent screen. */
  authUrl: string;
}

declare module "../settings" {
  interface ProvidersConfig {
    tiktok: TikTokProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const tiktokSettings = defineSettings({
  name: "tiktok",
  env: {
    // TikTok API for Business (TikTok Ads): the developer app's id and secret (My Apps → App Detail);
    // without both the catalogue shows TikTok as not configured. The API host serves the token endpoint
    // too; the consent screen is the portal's `/portal/auth`. The app's rate tier (Basic 10 per second,
    // 600 per minute) is counted before each call.
    TIKTOK_APP_ID: z.string().optional(),
    TIKTOK_APP_SECRET: z.string().optional(),
    TIKTOK_API_URL: z.url().default("https://business-api.tiktok.com"),
    TIKTOK_AUTH_URL: z.url().default("https://business-api.tiktok.com/portal/auth"),
  },
  read: (e): TikTokProviderConfig => ({
    appId: e.TIKTOK_APP_ID || null,
    appSecret: e.TIKTOK_APP_SECRET || null,
    apiUrl: e.TIKTOK_API_URL,
    authUrl: e.TIKTOK_AUTH_URL,
  }),
});
