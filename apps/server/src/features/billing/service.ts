import { BILLING_MESSAGES, type Quote, type TPaymentSecure, type TSubscriptionInput } from "@app/core";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import { companyChanged } from "../audit/events";
import { auditLog } from "../audit/record";
import type { CompaniesService } from "../companies/service";
import type { BillingDetailsService } from "./billing-details";
import { checkoutSteps, recurringOf } from "./checkout";
import type { CheckoutClaims } from "./claim";
import type { CheckoutConfirmation } from "./confirm";
import { type SubscriptionDiscounts, stripeDiscountsOf } from "./discounts";
import type { LifetimeCancellation } from "./lifetime";
import { BREAKDOWN_KEY, type CodedCoupon } from "./order-lines";
import type { CheckoutRefunds } from "./refund";
import { serviceEnd } from "./service-end";
import { isStripeError, type Stripe } from "./stripe-client";
import { subscriptionTaxParams } from "./stripe-tax";

/** The coupons a price counts (features/coupons): a company's applied ones, or a visitor's typed codes. */
export type CouponPrices = (companyId: string | null, codes: readonly string[]) => Promise<CodedCoupon[]>;

/** The price as the routes answer it (core `quote`, without its internals). */
export function presentQuote(q: Quote) {
  const { currency, dashboards, interval, unitCents, totalCents, unitPrice, total } = q;
  return { currency, dashboards, interval, unitCents, totalCents, unitPrice, total };
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

/**
 * Subscriptions and checkout (docs/product.md §4; docs/decisions.md "Billing: subscription lifecycle and
 * Stripe checkout"). Prices are always worked out here with core `quote`, never taken from the browser.
 * The company's state only changes through `companies.setState`: a checkout is paid when Stripe's
 * webhook says so, not when the browser reports it. Pricing and the checkout itself are in ./checkout.ts.
 */
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
  const { priceFor, checkout } = checkoutSteps({ ctx, couponPrices, automaticTax, requireStripe, provider });

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
