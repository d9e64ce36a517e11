import { z } from "zod";
import { defineSettings } from "../settings";
import { META_DEFAULT_VERSIONS } from "./versions";

/** Meta's app and Graph API (Facebook Ads, Facebook Social, Instagram). */
export interface MetaProviderConfig {
  appId: string | null;
  appSecret: string | null;
  /** https://graph.facebook.com: the API and the token endpoint. */
  graphUrl: string;
  /** https://www.facebook.com: the consent dialog. */
  dialogUrl: string;
  /** The Graph API version path segment ("v25.0"): Facebook Login, Pages, Page and Instagram insights. */
  graphVersion: string;
  /** The Marketing API version path segment ("v27.0"): Facebook Ads' ad accounts, campaigns and insights. */
  marketingVersion: string;
}

declare module "../settings" {
  interface ProvidersConfig {
    meta: MetaProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const metaSettings = defineSettings({
  name: "meta",
  env: {
    // Meta's app (Facebook Ads, Facebook Social, Instagram); without both, the catalogue shows the Meta
    // connectors as not configured on this server. The URLs default to Meta's own. Every call carries a
    // version path segment, and Meta ends the two APIs' versions on different days (./versions.ts):
    // META_GRAPH_VERSION is the Graph API's (login, Pages, Page and Instagram insights; v25.0 is served
    // until 2028-07-29), META_MARKETING_VERSION the Marketing API's (Facebook Ads; a version lives about
    // a year, so raise it at least once a year).
    META_APP_ID: z.string().optional(),
    META_APP_SECRET: z.string().optional(),
    META_GRAPH_URL: z.url().default("https://graph.facebook.com"),
    META_DIALOG_URL: z.url().default("https://www.facebook.com"),
    META_GRAPH_VERSION: z
      .string()
      .regex(/^v\d+\.\d+$/, "META_GRAPH_VERSION looks like v25.0")
      .default(META_DEFAULT_VERSIONS.graph),
    META_MARKETING_VERSION: z
      .string()
      .regex(/^v\d+\.\d+$/, "META_MARKETING_VERSION looks like v27.0")
      .default(META_DEFAULT_VERSIONS.marketing),
  },
  read: (e): MetaProviderConfig => ({
    appId: e.META_APP_ID || null,
    appSecret: e.META_APP_SECRET || null,
    graphUrl: e.META_GRAPH_URL,
    dialogUrl: e.META_DIALOG_URL,
    graphVersion: e.META_GRAPH_VERSION,
    marketingVersion: e.META_MARKETING_VERSION,
  }),
});
