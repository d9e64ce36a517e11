import { z } from "zod";
import { defineSettings } from "../settings";

/** Meta's app and Graph API (Facebook Ads, Facebook Social, Instagram). */
export interface MetaProviderConfig {
  appId: string | null;
  appSecret: string | null;
  /** https://graph.facebook.com: the API and the token endpoint. */
  graphUrl: string;
  /** https://www.facebook.com: the consent dialog. */
  dialogUrl: string;
  /** The Graph API version path segment ("v25.0"). */
  version: string;
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
    // connectors as not configured on this server. The URLs default to Meta's own; the Graph API version
    // is the path segment every call carries (v25.0 is supported until July 2028).
    META_APP_ID: z.string().optional(),
    META_APP_SECRET: z.string().optional(),
    META_GRAPH_URL: z.url().default("https://graph.facebook.com"),
    META_DIALOG_URL: z.url().default("https://www.facebook.com"),
    META_GRAPH_VERSION: z
      .string()
      .regex(/^v\d+\.\d+$/, "META_GRAPH_VERSION looks like v25.0")
      .default("v25.0"),
  },
  read: (e): MetaProviderConfig => ({
    appId: e.META_APP_ID || null,
    appSecret: e.META_APP_SECRET || null,
    graphUrl: e.META_GRAPH_URL,
    dialogUrl: e.META_DIALOG_URL,
    version: e.META_GRAPH_VERSION,
  }),
});
