import { z } from "zod";
import { defineSettings } from "../settings";

/** One LinkedIn developer app: its client, and the variables an operator sets for it (named when missing). */
export interface LinkedInApp {
  clientId: string | null;
  clientSecret: string | null;
  variables: readonly [string, string];
}

/**
 * LinkedIn's apps and REST API (LinkedIn Ads, LinkedIn Social). Two apps: LinkedIn requires the
 * Community Management API (LinkedIn Social's organisation statistics) to be the only product on its
 * app, so it cannot share the Advertising API's app (docs/connectors.md, "LinkedIn apps").
 */
export interface LinkedInProviderConfig {
  /** LinkedIn Ads' app: LINKEDIN_ADS_CLIENT_*, else the older shared LINKEDIN_CLIENT_*. */
  ads: LinkedInApp;
  /** LinkedIn Social's app (the Community Management API alone): LINKEDIN_SOCIAL_CLIENT_* only. */
  social: LinkedInApp;
  /** https://www.linkedin.com: the consent screen, the token and revoke endpoints. */
  authUrl: string;
  /** https://api.linkedin.com: /rest (versioned), /v2/userinfo and /v2/me. */
  apiUrl: string;
  /** The `LinkedIn-Version` header ("202610"). */
  version: string;
}

declare module "../settings" {
  interface ProvidersConfig {
    linkedin: LinkedInProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const linkedinSettings = defineSettings({
  name: "linkedin",
  env: {
    // LinkedIn's apps (developer portal → My apps). LinkedIn Ads: products "Advertising API" and "Sign In
    // with LinkedIn using OpenID Connect" (LINKEDIN_ADS_CLIENT_*; the older shared LINKEDIN_CLIENT_* still
    // work for it). LinkedIn Social: an app with the "Community Management API" alone, which LinkedIn
    // requires (LINKEDIN_SOCIAL_CLIENT_*, no fallback). Without its pair, the catalogue shows a connector
    // as not configured on this server and names the variables. AUTH_URL serves the
    // consent screen and the token endpoint, API_URL the REST API. LINKEDIN_VERSION is the `LinkedIn-Version`
    // header (YYYYMM) every /rest call carries: LinkedIn keeps a version about 12 months and refuses an
    // expired one (NONEXISTENT_VERSION), so raise it at least once a year.
    LINKEDIN_ADS_CLIENT_ID: z.string().optional(),
    LINKEDIN_ADS_CLIENT_SECRET: z.string().optional(),
    LINKEDIN_SOCIAL_CLIENT_ID: z.string().optional(),
    LINKEDIN_SOCIAL_CLIENT_SECRET: z.string().optional(),
    LINKEDIN_CLIENT_ID: z.string().optional(),
    LINKEDIN_CLIENT_SECRET: z.string().optional(),
    LINKEDIN_AUTH_URL: z.url().default("https://www.linkedin.com"),
    LINKEDIN_API_URL: z.url().default("https://api.linkedin.com"),
    LINKEDIN_VERSION: z
      .string()
      .regex(/^20\d{2}(0[1-9]|1[0-2])$/, "LINKEDIN_VERSION looks like 202610 (YYYYMM)")
      .default("202610"),
  },
  read: (e): LinkedInProviderConfig => ({
    // The Ads app's own pair when either of it is set (half a pair is then named missing), else the shared one.
    ads:
      e.LINKEDIN_ADS_CLIENT_ID || e.LINKEDIN_ADS_CLIENT_SECRET || !(e.LINKEDIN_CLIENT_ID || e.LINKEDIN_CLIENT_SECRET)
        ? {
            clientId: e.LINKEDIN_ADS_CLIENT_ID || null,
            clientSecret: e.LINKEDIN_ADS_CLIENT_SECRET || null,
            variables: ["LINKEDIN_ADS_CLIENT_ID", "LINKEDIN_ADS_CLIENT_SECRET"],
          }
        : {
            clientId: e.LINKEDIN_CLIENT_ID || null,
            clientSecret: e.LINKEDIN_CLIENT_SECRET || null,
            variables: ["LINKEDIN_CLIENT_ID", "LINKEDIN_CLIENT_SECRET"],
          },
    social: {
      clientId: e.LINKEDIN_SOCIAL_CLIENT_ID || null,
      clientSecret: e.LINKEDIN_SOCIAL_CLIENT_SECRET || null,
      variables: ["LINKEDIN_SOCIAL_CLIENT_ID", "LINKEDIN_SOCIAL_CLIENT_SECRET"],
    },
    authUrl: e.LINKEDIN_AUTH_URL,
    apiUrl: e.LINKEDIN_API_URL,
    version: e.LINKEDIN_VERSION,
  }),
});
