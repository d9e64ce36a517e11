import { z } from "zod";
import { ZRegister } from "./auth";
import { BILLING_MESSAGES } from "./billing";

/** Social registration and login providers of docs/product.md §2 and §7, in the order the pages show them. */
export const SOCIAL_PROVIDERS = ["google", "facebook", "linkedin"] as const;
export type TSocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export const SOCIAL_PROVIDER_NAMES: Record<TSocialProvider, string> = {
  google: "Google",
  facebook: "Facebook",
  linkedin: "LinkedIn",
};

export function isSocialProvider(value: string): value is TSocialProvider {
  return (SOCIAL_PROVIDERS as readonly string[]).includes(value);
}

/**
 * The provider in the path. Any text is accepted here so that an unknown or unconfigured provider
 * gets the same 404 (not a 422 that would list which ones exist).
 */
export const ZSocialProviderParams = z.object({ provider: z.string().min(1).max(32) });

const registration = ZRegister.shape;

/** A form leaves an unticked checkbox out: absent reads as not ticked, so the user reads the consent's own message. */
const unticked = <T extends z.ZodType>(schema: T) => z.preprocess((value) => value ?? false, schema);

/**
 * POST /register/{provider} (docs/product.md §7): the plan of the registration page and its consents,
 * which must be confirmed before the provider is asked (docs/product.md §4), with the messages and
 * field names of POST /register; its coupons, and (when payments are on) the paid checkout's
 * references, which the registration claims once the provider has said who signed up.
 */
export const ZSocialRegister = z.strictObject({
  terms_consent: unticked(registration.terms_consent),
  age_consent: unticked(registration.age_consent),
  coupons: registration.coupons,
  dashboards: registration.dashboards,
  interval: registration.interval,
  cid: registration.cid,
  flow: registration.flow,
  order_ref: registration.order_ref,
  order_id: registration.order_id,
  timezone: registration.timezone,
});
export type TSocialRegister = z.infer<typeof ZSocialRegister>;

/**
 * docs/product.md §4: with card payments on, a social sign-up pays in the checkout first, as the form
 * does; a start without the paid checkout's references is refused (422 on `order_ref`).
 */
export const SOCIAL_PAYMENT_REQUIRED =
  "Pay for the plan in the checkout first: with card payments on, an account is created once its plan is paid.";

/** POST /login/{provider}: nothing but the provider. */
export const ZSocialLogin = z.object({}).meta({ description: "No fields" });

/** GET /auth/{provider}/callback: what the provider appends to the redirect address. */
export const ZSocialCallbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(256).optional(),
  /** RFC 9207: the issuer of the answer (Google sends it); openid-client checks it. */
  iss: z.string().max(512).optional(),
  scope: z.string().max(4096).optional(),
  authuser: z.string().max(16).optional(),
  prompt: z.string().max(64).optional(),
  hd: z.string().max(255).optional(),
  error: z.string().max(256).optional(),
  error_code: z.string().max(64).optional(),
  error_reason: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});
export type TSocialCallbackQuery = z.infer<typeof ZSocialCallbackQuery>;

/**
 * Why a social sign-in ended without a session. The callback sends the browser back to the login or
 * registration page with `?social_error=<code>&provider=<provider>`; the page shows the message. A code
 * (not the text) travels in the address, so nobody can make our page say words of their choosing.
 */
export const SOCIAL_AUTH_ERRORS = {
  expired: "This sign-in has expired or was started in another browser. Please try again.",
  denied: "You did not allow {provider} to sign you in, so nothing changed.",
  provider_failed: "{provider} could not be reached to finish signing in. Please try again in a moment.",
  no_email: "{provider} did not share an e-mail address with us, so we cannot sign you in with it.",
  unverified_email:
    "An account with this e-mail address already exists, and {provider} does not confirm that the address is verified, so it was not linked. Log in with your password (or a provider that confirms the address).",
  no_account:
    "No account uses this {provider} e-mail address yet. Register first: tick the terms and age boxes, then Sign up with {provider}.",
  /** The checkout named at the start was used (or found unpaid) by the time the provider answered. */
  payment_refused: `${BILLING_MESSAGES.orderNotPaid} No account was created.`,
  payment_unavailable: `${BILLING_MESSAGES.providerFailed} No account was created.`,
  /** A coupon that passed at the start was used up or expired by the time the provider answered. */
  coupon_refused:
    "A coupon of this sign-up can no longer be used, so no account was created. Check the coupons and sign up again.",
} as const;
export type TSocialAuthError = keyof typeof SOCIAL_AUTH_ERRORS;

/**
 * A social sign-up pays before the provider answers; when no new account takes the payment it is given
 * back (docs/decisions.md "Social sign-up pays and takes coupons like the form"). The callback then
 * adds `payment=refunded` to the address, and the page adds this sentence to the reason.
 */
export const SOCIAL_PAYMENT_REFUNDED = "Your payment for this sign-up is being refunded to your card.";

/**
 * Said after a sign-in that did happen: `/dashboards?social_notice=<code>&provider=<provider>`. The
 * provider account (or its verified e-mail) already had a user, so that user is signed in and the
 * sign-up's payment is given back.
 */
export const SOCIAL_AUTH_NOTICES = {
  existing_account: `You already had an account, so {provider} signed you in to it and no new account was created. ${SOCIAL_PAYMENT_REFUNDED}`,
} as const;
export type TSocialAuthNotice = keyof typeof SOCIAL_AUTH_NOTICES;

const providerName = (provider: string | null) =>
  provider && isSocialProvider(provider) ? SOCIAL_PROVIDER_NAMES[provider] : "The provider";

/**
 * The message a page shows for `?social_error=…&provider=…[&payment=refunded]`, or null when the code
 * is not one of ours.
 */
export function socialAuthMessage(
  code: string | null,
  provider: string | null,
  payment?: string | null,
): string | null {
  if (!code || !(code in SOCIAL_AUTH_ERRORS)) return null;
  const text = SOCIAL_AUTH_ERRORS[code as TSocialAuthError].replaceAll("{provider}", providerName(provider));
  return payment === "refunded" ? `${text} ${SOCIAL_PAYMENT_REFUNDED}` : text;
}

/** The notice for `?social_notice=…&provider=…` after a social sign-in, or null when the code is not ours. */
export function socialAuthNotice(code: string | null, provider: string | null): string | null {
  if (!code || !(code in SOCIAL_AUTH_NOTICES)) return null;
  return SOCIAL_AUTH_NOTICES[code as TSocialAuthNotice].replaceAll("{provider}", providerName(provider));
}
