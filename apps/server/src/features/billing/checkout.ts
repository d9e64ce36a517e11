import {
  BILLING_MESSAGES,
  PricingError,
  type PricingErrorCode,
  type Quote,
  quote,
  type TPaymentPayload,
  type TSubscriptionInput,
} from "@app/core";
import type { AppContext } from "../../context";
import type { CompaniesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { type StripeBilling, stripeBillingOf, stripeDiscountsOf } from "./discounts";
import { BREAKDOWN_KEY, breakdownOf, type PriceBreakdown } from "./order-lines";
import type { CouponPrices } from "./service";
import type { Stripe } from "./stripe-client";
import { checkoutTaxParams } from "./stripe-tax";

/** A plan's price and how it was made (the invoice's lines, carried in Stripe's metadata). */
export interface Priced {
  q: Quote;
  breakdown: PriceBreakdown;
  /** The same price as Stripe bills it: the item before coupons, the coupons as a discount (./discounts.ts). */
  billing: StripeBilling;
}

/** Which field a price problem is reported under (422 per field). */
const PRICE_FIELDS: Record<PricingErrorCode, string> = {
  invalid_dashboards: "dashboards",
  invalid_interval: "interval",
  invalid_coupon: "coupons",
  invalid_discount: "general",
  invalid_table: "general",
};

/** Stripe's recurring period for our interval (1 or 12 months). */
export function recurringOf(interval: number): { interval: "month" | "year"; interval_count: 1 } {
  return { interval: interval === 12 ? "year" : "month", interval_count: 1 };
}

/** The checkout's one line: `dashboards` × the unit price before coupons, renewing every interval. */
function checkoutLineOf(q: Quote, billing: StripeBilling, name: string): Stripe.Checkout.SessionCreateParams.LineItem {
  return {
    quantity: q.dashboards,
    price_data: {
      currency: q.currency.toLowerCase(),
      unit_amount: billing.itemUnitCents,
      recurring: recurringOf(q.interval),
      product_data: { name },
    },
  };
}

/** Who a visitor's checkout is pre-filled for. */
export interface CheckoutCustomer {
  email?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

/** What pricing and checkout take from the billing service: Stripe when payments are on, and its calls' error handling. */
export interface CheckoutParts {
  ctx: AppContext;
  couponPrices: CouponPrices;
  automaticTax: boolean;
  requireStripe(): { stripe: Stripe; key: string };
  provider<T>(what: string, call: () => Promise<T>): Promise<T>;
}

/**
 * A plan's price, worked out here with core `quote` (never taken from the browser), and the embedded
 * checkout that starts its subscription, with a visitor's customer pre-filled when named.
 */
export function checkoutSteps({ ctx, couponPrices, automaticTax, requireStripe, provider }: CheckoutParts) {
  async function priceFor(row: CompaniesTable | null, input: TSubscriptionInput): Promise<Priced> {
    const coupons = await couponPrices(row?.id ?? null, input.coupons);
    const discountPercent = row?.discount ?? 0;
    try {
      const q = quote({ dashboards: input.dashboards, interval: input.interval, discountPercent, coupons });
      return {
        q,
        breakdown: breakdownOf(q, coupons, discountPercent),
        billing: stripeBillingOf(q, coupons, discountPercent),
      };
    } catch (error) {
      if (error instanceof PricingError) throw AppError.validation({ [PRICE_FIELDS[error.code]]: [error.message] });
      throw error;
    }
  }

  /**
   * An embedded Checkout Session (ui_mode `embedded_page`, Stripe's name since API 2026-03-25 for what
   * was `embedded`) for the priced plan: one line of `dashboards` × the unit price before coupons,
   * renewing every interval, and the coupons as the session's discount (kept by the subscription it
   * starts, so every renewal takes it off too). The company id rides in the metadata of the session and of the subscription, so every
   * later webhook finds its company.
   */
  async function checkout(
    row: CompaniesTable | null,
    { q, breakdown, billing }: Priced,
    coupons: readonly string[],
    customer: CheckoutCustomer | null,
  ): Promise<TPaymentPayload & { sessionId: string }> {
    const { stripe: client, key } = requireStripe();
    const metadata = {
      company_id: row?.id ?? "",
      dashboards: String(q.dashboards),
      interval: String(q.interval),
      coupons: coupons.join(","),
      // How the price was made, so the order's invoice can list it (./order-lines.ts).
      [BREAKDOWN_KEY]: JSON.stringify(breakdown),
    };
    // A name to pre-fill needs a customer of its own; an e-mail alone is Stripe's customer_email.
    const named = customer && (customer.firstName || customer.lastName);
    const customerId = row?.stripe_customer_id ?? (named ? await newCustomer(customer) : null);
    const email = !customerId && customer?.email ? customer.email : null;
    const discounts = await provider("coupon", () => stripeDiscountsOf(client, billing, q.currency));
    const session = await provider("checkout session", () =>
      client.checkout.sessions.create({
        mode: "subscription",
        ui_mode: "embedded_page",
        redirect_on_completion: "never",
        line_items: [checkoutLineOf(q, billing, `${ctx.config.siteTitle} dashboards`)],
        ...(discounts ? { discounts } : {}),
        ...(customerId && { customer: customerId }),
        ...checkoutTaxParams(automaticTax, customerId !== null),
        ...(email && { customer_email: email }),
        ...(row && { client_reference_id: row.id }),
        metadata,
        subscription_data: { metadata },
      }),
    );
    if (!session.client_secret) throw new AppError("unavailable", BILLING_MESSAGES.providerFailed);
    return { payload: session.client_secret, key, sessionId: session.id };
  }

  /**
   * A visitor's Stripe customer with the name and e-mail typed on the register page, so the checkout
   * opens pre-filled (docs/product.md §4: the name split on its first space).
   */
  async function newCustomer(customer: CheckoutCustomer): Promise<string> {
    const { stripe: client } = requireStripe();
    const name = [customer.firstName, customer.lastName].filter(Boolean).join(" ");
    const created = await provider("customer", () =>
      client.customers.create({
        ...(customer.email && { email: customer.email }),
        ...(name && { name }),
        metadata: { first_name: customer.firstName ?? "", last_name: customer.lastName ?? "" },
      }),
    );
    return created.id;
  }

  return { priceFor, checkout };
}
