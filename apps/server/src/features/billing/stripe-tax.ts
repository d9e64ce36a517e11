import type { Stripe } from "./stripe-client";

/**
 * STRIPE_AUTOMATIC_TAX (docs/operations.md "Billing and payments"): Stripe Tax computes the tax of a
 * checkout from the customer's address. For a customer that already exists Stripe requires the address
 * (and name) typed in the checkout to be saved on it (`customer_update: auto`), or it refuses a
 * customer without an address; a session without a customer makes its own and needs none. Off: the
 * request carries no `automatic_tax`, and Stripe adds only the tax rates the account's prices carry.
 */
export function checkoutTaxParams(
  automatic: boolean,
  hasCustomer: boolean,
): Pick<Stripe.Checkout.SessionCreateParams, "automatic_tax" | "customer_update"> {
  if (!automatic) return {};
  return {
    automatic_tax: { enabled: true },
    ...(hasCustomer && { customer_update: { address: "auto", name: "auto" } }),
  };
}

/**
 * A subscription this server changes keeps Stripe Tax on (re-pricing never drops it, and a subscription
 * started before the setting was turned on gets it with its next change).
 */
export const subscriptionTaxParams = (automatic: boolean): Pick<Stripe.SubscriptionUpdateParams, "automatic_tax"> =>
  automatic ? { automatic_tax: { enabled: true } } : {};
