import { z } from "zod";
import { MAX_REGISTRATION_DASHBOARDS } from "./auth";
import { dataEnvelope } from "./common";
import { ZCompany } from "./company";

/** Words of the billing routes (docs/product.md §4), shared by the server and the web. */
export const BILLING_MESSAGES = {
  paymentsOff: "Card payments are not set up on this server.",
  alreadySubscribed: "The company already has a subscription: change it instead.",
  noSubscription: "The company has no subscription to change yet: subscribe first.",
  providerFailed: "The card payment provider could not be reached. Please try again in a minute.",
  badSignature: "The webhook signature is not valid.",
  noCustomer: "There is no card on file yet: subscribe first.",
  /** A registration's order_ref/order_id that is forged, unpaid or already used (422 on `order_ref`). */
  orderNotPaid: "This payment could not be confirmed: it is unknown, unpaid or already used.",
  /** The card provider refused the billing details' VAT number (422 on `vat_id`); nothing was saved. */
  taxIdRefused: "The card payment provider does not accept this VAT or tax number. Please check it.",
} as const;

/**
 * The checkout's failures as the page shows them (docs/product.md §8: a checkout error fails it, closing
 * it without an order reference or id counts as failure).
 */
export const CHECKOUT_TEXTS = {
  closed: "The checkout was closed before the payment was completed. Your account was not created.",
  closedSubscription: "The checkout was closed before the payment was completed. Your plan did not change.",
  loadFailed: "The card payment form could not be loaded. Please try again in a minute.",
} as const;

/**
 * What the subscription page says after its checkout: nothing is "received" until the server has
 * confirmed the payment (Stripe's webhook, or its own check of the checkout session with Stripe).
 */
export const PAYMENT_CONFIRMATION_TEXTS = {
  confirmingTitle: "Confirming your payment",
  confirming:
    "Stripe is confirming your payment. Your subscription starts as soon as it does; this usually takes a few seconds.",
  receivedTitle: "Payment received",
  received: "Your subscription is active.",
  unconfirmedTitle: "Your payment is not confirmed yet",
  /** `{ref}`: the checkout's reference, for the operator to find the payment at Stripe. */
  unconfirmed: (ref: string) =>
    `We have not had Stripe's confirmation of this payment yet, so your subscription has not started. Do not pay again: if your card was charged, your subscription starts as soon as Stripe confirms it. Check again in a few minutes; if it is still not confirmed, contact support with the payment reference ${ref}.`,
  checkAgain: "Check again",
} as const;

const zDashboards = z.coerce
  .number({ error: "The dashboards must be a number." })
  .int("The dashboards must be a whole number.")
  .min(1, "The dashboards must be at least 1.")
  .max(MAX_REGISTRATION_DASHBOARDS, `The dashboards may not be greater than ${MAX_REGISTRATION_DASHBOARDS}.`);

const zInterval = z.coerce
  .number({ error: "The interval must be 1 or 12." })
  .refine((v) => v === 1 || v === 12, "The interval must be 1 or 12.")
  .transform((v) => v as 1 | 12);

/** Coupon codes as typed (the coupons feature decides which apply; docs/product.md §5). */
const zCouponCodes = z
  .array(z.string().trim().min(1, "A coupon code may not be empty.").max(64), {
    error: "The coupons must be a list of codes.",
  })
  .max(10, "At most 10 coupons.")
  .default([]);

/** POST / PUT /api/company/subscription: the plan the admin asks for; the server prices it. */
export const ZSubscriptionInput = z.strictObject({
  dashboards: zDashboards,
  interval: zInterval,
  coupons: zCouponCodes,
});
export type TSubscriptionInput = z.infer<typeof ZSubscriptionInput>;

/** The price the server computed with core `quote` (integer cents and the same in dollars). */
export const ZPriceQuote = z.object({
  currency: z.string(),
  dashboards: z.number().int(),
  interval: z.number().int(),
  unitCents: z.number().int(),
  totalCents: z.number().int(),
  unitPrice: z.number(),
  total: z.number(),
});

/** What the embedded checkout needs: the Checkout Session's client secret and the publishable key. */
export const ZPaymentPayload = z.object({ payload: z.string(), key: z.string() });
export type TPaymentPayload = z.infer<typeof ZPaymentPayload>;

/**
 * A subscription request's answer: the price, the company as it is now, and the checkout to open when
 * the card still has to be charged (create); null when the provider changed the plan at once (change).
 */
export const ZSubscriptionAnswer = dataEnvelope(
  z.object({
    company: ZCompany,
    quote: ZPriceQuote,
    // A new subscription's checkout, with its session (`order_ref`) for the page to have it confirmed.
    checkout: ZPaymentPayload.extend({ order_ref: z.string() }).nullable(),
  }),
);

/** POST /api/company/subscription/confirm: the checkout session the page paid (its `order_ref`). */
export const ZSubscriptionConfirm = z.strictObject({
  order_ref: z
    .string({ error: "The payment reference is missing." })
    .trim()
    .min(1, "The payment reference is missing.")
    .max(255),
});
export type TSubscriptionConfirm = z.infer<typeof ZSubscriptionConfirm>;

/** Whether the server has the payment (from Stripe's webhook or its own check), and the company as it is now. */
export const ZSubscriptionConfirmAnswer = dataEnvelope(z.object({ confirmed: z.boolean(), company: ZCompany }));

/** POST /api/payment/secure: the registration form's plan (or an admin's), priced by the server. */
export const ZPaymentSecure = z.strictObject({
  dashboards: zDashboards,
  interval: zInterval,
  coupons: zCouponCodes,
  /** The registering visitor's address: the checkout pre-fills it and coupons may be tied to it. */
  email: z.email("The email must be a valid email address.").max(254).optional(),
  /** The name split on its first space (docs/product.md §4): the checkout's customer is pre-filled. */
  first_name: z.string().trim().max(120).optional(),
  last_name: z.string().trim().max(120).optional(),
});
export type TPaymentSecure = z.infer<typeof ZPaymentSecure>;

/** `order_ref` is the Checkout Session, `order_id` the server's signature of it: a registration claims both. */
export const ZPaymentSecureResponse = ZPaymentPayload.extend({
  quote: ZPriceQuote,
  order_ref: z.string(),
  order_id: z.string(),
});

/** Stripe's event as sent (checked against its signature, then read by the server). */
export const ZPaymentWebhook = z.looseObject({ id: z.string(), type: z.string() });
export const ZPaymentWebhookAnswer = z.object({ received: z.literal(true), duplicate: z.boolean() });

/** POST /api/company/payment-portal: where the admin manages the card (a Stripe billing portal session). */
export const ZPaymentPortalResponse = dataEnvelope(z.object({ url: z.string() }));
