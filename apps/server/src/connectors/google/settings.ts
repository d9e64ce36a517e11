import { z } from "zod";
import { defineSettings } from "../settings";

/** One OAuth client and the API addresses of one provider family. */
export interface GoogleProviderConfig {
  clientId: string | null;
  clientSecret: string | null;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  ga4DataUrl: string;
  ga4AdminUrl: string;
  searchConsoleUrl: string;
  sheetsUrl: string;
  driveUrl: string;
  /** Google Business Profile: Account Management, Business Information and Performance APIs. */
  businessAccountsUrl: string;
  businessInformationUrl: string;
  businessPerformanceUrl: string;
  /** Google Ads: https://googleads.googleapis.com, the version segment ("v24") and the developer token. */
  adsUrl: string;
  adsVersion: string;
  adsDeveloperToken: string | null;
  /** Operations a day the developer token may spend (its access level). */
  adsDailyOperations: number;
}

declare module "../settings" {
  interface ProvidersConfig {
    google: GoogleProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const googleSettings = defineSettings({
  name: "google",
  env: {
    // Google's OAuth client (Google Analytics and the other Google connectors); without both, the catalogue
    // shows the Google connectors as not configured on this server. The URLs default to Google's own.
    GOOGLE_CLIENT_ID: z.string().optional(),
    GOOGLE_CLIENT_SECRET: z.string().optional(),
    GOOGLE_AUTH_URL: z.url().default("https://accounts.google.com/o/oauth2/v2/auth"),
    GOOGLE_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
    GOOGLE_REVOKE_URL: z.url().default("https://oauth2.googleapis.com/revoke"),
    GA4_DATA_API_URL: z.url().default("https://analyticsdata.googleapis.com"),
    GA4_ADMIN_API_URL: z.url().default("https://analyticsadmin.googleapis.com"),
    SEARCH_CONSOLE_API_URL: z.url().default("https://www.googleapis.com"),
    // Google Sheets reads values from the Sheets API and lists spreadsheets from the Drive API.
    SHEETS_API_URL: z.url().default("https://sheets.googleapis.com"),
    DRIVE_API_URL: z.url().default("https://www.googleapis.com"),
    // Google Business Profile: three APIs, each with its own address (Account Management for accounts,
    // Business Information for locations, Performance for the daily numbers).
    GBP_ACCOUNT_MANAGEMENT_API_URL: z.url().default("https://mybusinessaccountmanagement.googleapis.com"),
    GBP_BUSINESS_INFORMATION_API_URL: z.url().default("https://mybusinessbusinessinformation.googleapis.com"),
    GBP_PERFORMANCE_API_URL: z.url().default("https://businessprofileperformance.googleapis.com"),
    // Google Ads: the API's address, its version path segment (Google keeps a version about a year; v24
    // was released in April 2026) and the operator's developer token (Google Ads API Center of a manager
    // account), sent as the `developer-token` header on every call. Without the token the catalogue shows
    // Google Ads as not configured on this server.
    GOOGLE_ADS_API_URL: z.url().default("https://googleads.googleapis.com"),
    GOOGLE_ADS_API_VERSION: z
      .string()
      .regex(/^v\d+$/, "GOOGLE_ADS_API_VERSION looks like v24")
      .default("v24"),
    GOOGLE_ADS_DEVELOPER_TOKEN: z.string().optional(),
    // Operations a day the developer token's access level allows (Explorer 2,880, Basic 15,000; Standard
    // has no daily cap: set a number above what the server could use). Counted before each call.
    GOOGLE_ADS_DAILY_OPERATIONS: z.coerce.number().int().positive().default(15_000),
  },
  read: (e): GoogleProviderConfig => ({
    clientId: e.GOOGLE_CLIENT_ID || null,
    clientSecret: e.GOOGLE_CLIENT_SECRET || null,
    authUrl: e.GOOGLE_AUTH_URL,
    tokenUrl: e.GOOGLE_TOKEN_URL,
    revokeUrl: e.GOOGLE_REVOKE_URL,
    ga4DataUrl: e.GA4_DATA_API_URL,
    ga4AdminUrl: e.GA4_ADMIN_API_URL,
    searchConsoleUrl: e.SEARCH_CONSOLE_API_URL,
    sheetsUrl: e.SHEETS_API_URL,
    driveUrl: e.DRIVE_API_URL,
    businessAccountsUrl: e.GBP_ACCOUNT_MANAGEMENT_API_URL,
    businessInformationUrl: e.GBP_BUSINESS_INFORMATION_API_URL,
    businessPerformanceUrl: e.GBP_PERFORMANCE_API_URL,
    adsUrl: e.GOOGLE_ADS_API_URL,
    adsVersion: e.GOOGLE_ADS_API_VERSION,
    adsDeveloperToken: e.GOOGLE_ADS_DEVELOPER_TOKEN || null,
    adsDailyOperations: e.GOOGLE_ADS_DAILY_OPERATIONS,
  }),
});
