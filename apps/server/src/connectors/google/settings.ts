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
  /** The Google Ads API access level of the server's Google Cloud project (docs/connectors.md). */
  adsAccessLevel: AdsAccessLevel;
  /** Operations a day the server may spend: the access level's allowance, or the operator's own; null: not counted (Standard). */
  adsDailyOperations: number | null;
}

/**
 * Google Ads API access levels and the operations a day each allows against production accounts
 * (docs/connectors.md, Google Ads, Quotas): Explorer, granted automatically to most projects that ask,
 * allows 2,880; Test and Basic 15,000; Standard is not capped (null).
 */
export const ADS_ACCESS_LEVELS = { test: 15_000, explorer: 2_880, basic: 15_000, standard: null } as const;
export type AdsAccessLevel = keyof typeof ADS_ACCESS_LEVELS;

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
    // The Google Ads API access level Google granted (test, explorer, basic, standard; default explorer,
    // the level most projects start with): it sets the operations a day the server counts before each call
    // (ADS_ACCESS_LEVELS). GOOGLE_ADS_DAILY_OPERATIONS overrides that allowance (fewer when another tool
    // shares the project, or a cap of the server's own under Standard).
    GOOGLE_ADS_ACCESS_LEVEL: z
      .enum(Object.keys(ADS_ACCESS_LEVELS) as [AdsAccessLevel, ...AdsAccessLevel[]], {
        error: "GOOGLE_ADS_ACCESS_LEVEL is one of test, explorer, basic, standard",
      })
      .default("explorer"),
    GOOGLE_ADS_DAILY_OPERATIONS: z.coerce.number().int().positive().optional(),
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
    adsAccessLevel: e.GOOGLE_ADS_ACCESS_LEVEL,
    adsDailyOperations: e.GOOGLE_ADS_DAILY_OPERATIONS ?? ADS_ACCESS_LEVELS[e.GOOGLE_ADS_ACCESS_LEVEL],
  }),
});
