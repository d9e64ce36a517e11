import { z } from "zod";
import { defineSettings } from "../settings";

/** Mailchimp's OAuth app and hosts. */
export interface MailchimpProviderConfig {
  clientId: string | null;
  clientSecret: string | null;
  /** https://login.mailchimp.com: consent, token and metadata. */
  loginUrl: string;
  /** https://{dc}.api.mailchimp.com: `{dc}` is replaced by the account's data centre. */
  apiUrl: string;
}

declare module "../settings" {
  interface ProvidersConfig {
    mailchimp: MailchimpProviderConfig;
  }
}

/** This provider's environment variables (its part of the server's settings, listed in `.env.example`) and what they become. */
export const mailchimpSettings = defineSettings({
  name: "mailchimp",
  env: {
    // Mailchimp's OAuth app (Marketing API 3.0); without both the catalogue shows Mailchimp as not
    // configured. The login host serves consent, token and metadata; the API host is a template whose
    // `{dc}` is the account's data centre, learnt from the metadata call (tests give an origin without it).
    MAILCHIMP_CLIENT_ID: z.string().optional(),
    MAILCHIMP_CLIENT_SECRET: z.string().optional(),
    MAILCHIMP_LOGIN_URL: z.url().default("https://login.mailchimp.com"),
    MAILCHIMP_API_URL: z
      .string()
      .refine((v) => URL.canParse(v.replaceAll("{dc}", "us1")), "must be a URL, `{dc}` standing for the data centre")
      .default("https://{dc}.api.mailchimp.com"),
  },
  read: (e): MailchimpProviderConfig => ({
    clientId: e.MAILCHIMP_CLIENT_ID || null,
    clientSecret: e.MAILCHIMP_CLIENT_SECRET || null,
    loginUrl: e.MAILCHIMP_LOGIN_URL,
    apiUrl: e.MAILCHIMP_API_URL,
  }),
});
