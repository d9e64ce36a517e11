import {
  BILLING_MESSAGES,
  PricingError,
  type PricingErrorCode,
  type Quote,
  quote,
  type TPaymentPayload,
  type TPaymentSecure,
  type TSubscriptionInput,
} from "@app/core";
import type { AppContext } from "../../context";
import type { CompaniesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { companyChanged } from "../audit/events";
import { auditLog } from "../audit/record";
import type { CompaniesService } from "../companies/service";
import type { BillingDetailsService } from "./billing-details";
import type { CheckoutClaims } from "./claim";
import type { CheckoutConfirmation } from "./confirm";
import { type StripeBilling, type SubscriptionDiscounts, stripeBillingOf, stripeDiscountsOf } from "./discounts";
import type { LifetimeCancellation } from "./lifetime";
import { BREAKDOWN_KEY, breakdownOf, type CodedCoupon, type PriceBreakdown } from "./order-lines";
import type { CheckoutRefunds } from "./refund";
import { serviceEnd } from "./service-end";
import { isStripeError, type Stripe } from "./stripe-client";
import { checkoutTaxParams, subscriptionTaxParams } from "./stripe-tax";

/** The coupons a price counts (features/coupons): a company's applied ones, or a visitor's typed codes. */
export type CouponPrices = (companyId: string | null, codes: readonly string[]) => Promise<CodedCoupon[]>;

/** A plan's price and how it was made (the invoice's lines, carried in Stripe's metadata). */
interface Priced {
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

/** The price as the routes answer it (core `quote`, without its internals). */
export function presentQuote(q: Quote) {
  const { currency, dashboards, interval, unitCents, totalCents, unitPrice, total } = q;
  return { currency, dashboards, interval, unitCents, totalCents, unitPrice, total };
}

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

/**
 * Subscriptions and checkout (docs/product.md §4; docs/decisions.md "Billing: subscription lifecycle and
 * Stripe checkout"). Prices are always worked out here with core `quote`, never taken from the browser.
 * The company's state only changes through `companies.setState`: a checkout is paid when Stripe's
 * webhook says so, not when the browser reports it.
 */
/** Who a visitor's checkout is pre-filled for. */
interface CheckoutCustomer {
  email?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

/** A Stripe call: its failures are a 503 the admin may retry (logged with Stripe's own words). */
async function stripeCall<T>(ctx: AppContext, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isStripeError(error)) throw error;
    ctx.logger.warn({ err: error, stripeType: error.type, stripeCode: error.code }, `stripe: ${what} failed`);
    throw new AppError("unavailable", BILLING_MESSAGES.providerFailed);
  }
}

export function billingService(
  ctx: AppContext,
  companies: CompaniesService,
  couponPrices: CouponPrices,
  stripe: Stripe | null,
  claims: CheckoutClaims,
  details: BillingDetailsService,
) {
  const config = ctx.config.stripe;
  const automaticTax = config?.automaticTax ?? false;

  function requireStripe(): { stripe: Stripe; key: string } {
    if (!stripe || !config) throw AppError.validation({ general: [BILLING_MESSAGES.paymentsOff] });
    return { stripe, key: config.publishableKey };
  }

  const provider = <T>(what: string, call: () => Promise<T>) => stripeCall(ctx, what, call);
  const audit = auditLog(ctx);

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

  return {
    /** Payments are on (STRIPE_SECRET_KEY set): page data's `paymentEnabled`. */
    enabled: stripe !== null,

    /** POST /api/company/subscription: the price and the checkout that starts the subscription. */
    async create(companyId: string, input: TSubscriptionInput) {
      const row = await companies.load(companyId);
      // A canceled subscription may be bought again; a running one is changed, never doubled.
      if (row.subscription_id && row.state !== "canceled") {
        throw AppError.validation({ general: [BILLING_MESSAGES.alreadySubscribed] });
      }
      const { stripe: client } = requireStripe();
      const priced = await priceFor(row, input);
      // The checkout is for the company's customer, told its billing details (Stripe's receipts and tax).
      const customer = await provider("customer", () => details.customerFor(client, row));
      const { payload, key, sessionId } = await checkout(
        { ...row, stripe_customer_id: customer },
        priced,
        input.coupons,
        null,
      );
      return {
        company: await companies.get(companyId),
        quote: presentQuote(priced.q),
        checkout: { payload, key, order_ref: sessionId },
      };
    },

    /**
     * PUT /api/company/subscription: Stripe changes the subscription's item (new count and unit price,
     * prorated) first; only then does the company's plan change here, pushed live.
     */
    async change(companyId: string, input: TSubscriptionInput) {
      const row = await companies.load(companyId);
      if (!row.subscription_id || row.state === "canceled") {
        throw AppError.validation({ general: [BILLING_MESSAGES.noSubscription] });
      }
      const { stripe: client } = requireStripe();
      const { q, breakdown, billing } = await priceFor(row, input);
      const subscriptionId = row.subscription_id;
      // The prorated invoice this makes goes to the customer as its billing details say now.
      if (row.stripe_customer_id) await details.customerFor(client, row);
      const subscription = await provider("subscription read", () => client.subscriptions.retrieve(subscriptionId));
      const item = subscription.items.data[0];
      if (!item) throw new AppError("unavailable", BILLING_MESSAGES.providerFailed);
      const product = typeof item.price.product === "string" ? item.price.product : item.price.product.id;
      // The coupons' discount follows the plan: a new count or interval takes another amount off.
      const discounts = await provider("coupon", () => stripeDiscountsOf(client, billing, q.currency));
      await provider("subscription change", () =>
        client.subscriptions.update(subscriptionId, {
          items: [
            {
              id: item.id,
              quantity: q.dashboards,
              price_data: {
                currency: q.currency.toLowerCase(),
                product,
                unit_amount: billing.itemUnitCents,
                recurring: recurringOf(q.interval),
              },
            },
          ],
          discounts,
          ...subscriptionTaxParams(automaticTax),
          proration_behavior: "create_prorations",
          metadata: {
            company_id: companyId,
            dashboards: String(q.dashboards),
            interval: String(q.interval),
            [BREAKDOWN_KEY]: JSON.stringify(breakdown),
          },
        }),
      );
      const plan = { dashboards: q.dashboards, interval: q.interval };
      const company = await companies.setState(
        companyId,
        { services_dashboards: q.dashboards, subscription_interval: q.interval },
        audit.alongside(companyChanged("billing.plan_changed", companyId, plan)),
      );
      return { company, quote: presentQuote(q), checkout: null };
    },

    /**
     * POST /api/payment/secure: the embedded checkout for a registering visitor (no company yet: the
     * coupons are the typed codes) or a signed-in admin (the company's applied coupons).
     */
    async secure(input: TPaymentSecure, companyId: string | null) {
      requireStripe();
      const row = companyId ? await companies.load(companyId) : null;
      const priced = await priceFor(row, input);
      const { first_name: firstName, last_name: lastName, email } = input;
      const visitor = row || !(email || firstName || lastName) ? null : { email, firstName, lastName };
      const { payload, key, sessionId } = await checkout(row, priced, input.coupons, visitor);
      return {
        payload,
        key,
        quote: presentQuote(priced.q),
        order_ref: sessionId,
        order_id: claims.orderIdOf(sessionId),
      };
    },

    /**
     * POST /api/company/payment-portal: a Stripe billing portal session for the company's customer, where
     * the admin changes the card (banner 128); it leads back to the subscription page.
     */
    async paymentPortal(companyId: string): Promise<{ url: string }> {
      const row = await companies.load(companyId);
      const { stripe: client } = requireStripe();
      const customer = row.stripe_customer_id;
      if (!customer) throw AppError.validation({ general: [BILLING_MESSAGES.noCustomer] });
      const session = await provider("billing portal", () =>
        client.billingPortal.sessions.create({
          customer,
          return_url: `${ctx.config.appUrl.replace(/\/+$/, "")}/company/subscription`,
        }),
      );
      await audit.record(ctx.db, companyChanged("billing.payment_method", companyId));
      return { url: session.url };
    },

    ...serviceEnd(ctx, companies, stripe),
  };
}

export type BillingService = ReturnType<typeof billingService> & {
  handleWebhook(text: string, signature: string | undefined): Promise<{ duplicate: boolean }>;
  /** A registration claiming its paid checkout (./claim.ts). */
  claims: CheckoutClaims;
  /** The card subscription a lifetime deal replaced, canceled after the coupon commits (./lifetime.ts). */
  lifetime: LifetimeCancellation;
  /** A price coupon applied to a paying company, carried to its Stripe subscription (./discounts.ts). */
  discounts: SubscriptionDiscounts;
  /** The subscription page's check that its checkout was paid (./confirm.ts). */
  confirmation: CheckoutConfirmation;
  /** The company's billing details, told to its Stripe customer (./billing-details.ts). */
  details: BillingDetailsService;
  /** A paid checkout no new company claimed (a social sign-up that ended otherwise), given back (./refund.ts). */
  refunds: CheckoutRefunds;
};
