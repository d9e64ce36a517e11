import { z } from "zod";
import { ONBOARDING_FLOWS } from "../onboarding/flows";
import { ZCompany } from "./company";
import { SOCIAL_PROVIDERS } from "./social-auth";
import { ZUser } from "./users";

export const ZGlobalMessage = z.object({
  code: z.number().int(),
  title: z.string().nullable(),
  body: z.string(),
  closeable: z.boolean(),
  type: z.enum(["error", "warning", "success", "info"]),
});
export type TGlobalMessage = z.infer<typeof ZGlobalMessage>;

/** User session data of docs/product.md §3. */
export const ZSessionData = z.object({
  userId: z.string(),
  termsConsent: z.boolean(),
  ageConsent: z.boolean(),
  roleName: z.string(),
  timezone: z.string(),
  dates: z.record(z.string(), z.unknown()),
  authorization: z.record(z.string(), z.string()),
});
export type TSessionData = z.infer<typeof ZSessionData>;

/** What the SPA's HTML carries and GET /api/page-data returns. */
export const ZPageData = z.object({
  user: ZUser.nullable(),
  company: ZCompany.nullable(),
  session: ZSessionData.nullable(),
  identification: z.string(),
  messages: z.array(ZGlobalMessage),
  siteTitle: z.string(),
  onboarding: z
    .object({
      /** The flow chosen at registration; the questionnaire's source picks the flow when it names one. */
      flow: z.enum(ONBOARDING_FLOWS),
      step: z.number().int(),
      /** The intro questionnaire's answer (docs/product.md §3), null until answered. */
      source: z.string().nullable(),
      /** The flow the company's plan imposes (a lifetime deal: dashboard): then the intro asks nothing. */
      forcedFlow: z.enum(ONBOARDING_FLOWS).nullable(),
    })
    .nullable(),
  config: z.object({
    maxPdfWidgets: z.number().int(),
    paymentEnabled: z.boolean(),
    /** Where the checkout loads Stripe.js from (STRIPE_JS_URL); null when payments are off. */
    stripeJsUrl: z.string().nullable(),
    /** The social sign-in providers configured on this server (docs/product.md §2): only these get buttons. */
    socialProviders: z.array(z.enum(SOCIAL_PROVIDERS)),
    /** Sentry for the browser; null: the app reports nothing (and never loads the SDK). */
    errorReporting: z.object({ dsn: z.string(), sampleRate: z.number(), environment: z.string() }).nullable(),
  }),
});
export type TPageData = z.infer<typeof ZPageData>;

export const ZHealth = z.object({ status: z.literal("ok") });
