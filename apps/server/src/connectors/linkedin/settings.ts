import { z } from "zod";
import { defineSettings } from "../settings";

/** LinkedIn's app and REST API (LinkedIn Ads, LinkedIn Social). */
export interface LinkedInProviderConfig {
  clientId: string | null;
  clientSecret: string | null;
  /** https://www.linkedin.com: the consent screen, the token and revoke endpoints. */
  authUrl: string;
  /** https://api.linkedin.com: /rest (versioned) and /v2/userinfo. */
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
    // LinkedIn's app (LinkedIn Ads, LinkedIn Social; developer portal → My apps, products "Advertising
    // API", "Community Management API" and "Sign In with LinkedIn using OpenID Connect"); without both,
    // the catalogue shows the LinkedIn connectors as not configured on this server. AUTH_URL serves the
    // consent screen and the token endpoint, API_URL the REST API. LINKEDIN_VERSION is the `LinkedIn-Version`
    // header (YYYYMM) every /rest call carries: LinkedIn keeps a version about 12 months and refuses an
    // expired one (NONEXISTENT_VERSION), so raise it at least once a year.
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
    clientId: e.LINKEDIN_CLIENT_ID || null,
    clientSecret: e.LINKEDIN_CLIENT_SECRET || null,
    authUrl: e.LINKEDIN_AUTH_URL,
    apiUrl: e.LINKEDIN_API_URL,
    version: e.LINKEDIN_VERSION,
  }),
});
