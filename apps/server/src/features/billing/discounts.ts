import { createHash } from "node:crypto";
import { PRICE_COUPON_TYPES, type Quote, quote } from "@app/core";
import { z } from "zod";
import type { AppContext } from "../../context";
import type { JobDefinition } from "../../infra/jobs";
import { newId } from "../../infra/security";
import type { CompaniesService } from "../companies/service";
import { isLifetimeRow } from "./lifetime";
import { BREAKDOWN_KEY, breakdownOf, type CodedCoupon } from "./order-lines";
import { billingRepo } from "./repo";
import { isStripeError, type Stripe } from "./stripe-client";
import { subscriptionTaxParams } from "./stripe-tax";

export const DISCOUNT_SYNC_JOB = "billing.sync-subscription-discount";

/**
 * How a plan is billed at Stripe (docs/decisions.md "Coupons reach the Stripe subscription"): the
 * subscription's item at one dashboard's price before coupons (the annual and company discounts are in
 * it), and the coupons as one Stripe coupon taking a fixed amount off every invoice. That amount is
 * worked out by core `quote`, so every invoice charges exactly the total the page shows (a Stripe
 * percent coupon would round on the invoice's subtotal, not per dashboard as `quote` does).
 */
export interface StripeBilling {
  itemUnitCents: number;
  /** What the coupons take off one invoice: the total before coupons less `quote`'s total; 0 for none. */
  discountCents: number;
  /** The coupons' codes, the name Stripe's invoice gives the discount (at most 40 characters). */
  name: string;
}

export function stripeBillingOf(q: Quote, coupons: readonly CodedCoupon[], discountPercent: number): StripeBilling {
  const before = quote({ dashboards: q.dashboards, interval: q.interval, discountPercent, coupons: [] });
  const codes = coupons
    .filter((c) => c.type === PRICE_COUPON_TYPES.discount || c.type === PRICE_COUPON_TYPES.fixed)
    .map((c) => c.code);
  const name = `${codes.length > 1 ? "Coupons" : "Coupon"} ${codes.join(", ")}`;
  return {
    itemUnitCents: before.unitCents,
    discountCents: before.totalCents - q.totalCents,
    name: name.length > 40 ? `${name.slice(0, 39)}…` : name,
  };
}

/**
 * The Stripe coupon for a discount: its id is made from what it does (amount, currency, name), so the
 * same discount is one coupon however often it is asked for (companies with the same codes and plan
 * share it), and a retry never makes a second one.
 */
export function stripeCouponId(billing: StripeBilling, currency: string): string {
  const digest = createHash("sha256").update(billing.name).digest("hex").slice(0, 10);
  return `reportz_${currency.toLowerCase()}_${billing.discountCents}_off_${digest}`;
}

/** Makes the coupon (or finds it made); throws Stripe's error otherwise. */
export async function ensureStripeCoupon(stripe: Stripe, billing: StripeBilling, currency: string): Promise<string> {
  const id = stripeCouponId(billing, currency);
  try {
    await stripe.coupons.create(
      {
        id,
        amount_off: billing.discountCents,
        currency: currency.toLowerCase(),
        duration: "forever",
        name: billing.name,
      },
      { idempotencyKey: `coupon-create:${id}` },
    );
  } catch (error) {
    if (!(isStripeError(error) && error.code === "resource_already_exists")) throw error;
  }
  return id;
}

/** Stripe's `discounts` for a plan's coupons: the one coupon, or "" (none: removes any). */
export async function stripeDiscountsOf(
  stripe: Stripe,
  billing: StripeBilling,
  currency: string,
): Promise<Array<{ coupon: string }> | ""> {
  if (billing.discountCents <= 0) return "";
  return [{ coupon: await ensureStripeCoupon(stripe, billing, currency) }];
}

const ZDiscountSync = z.object({ companyId: z.string(), operation: z.string() }).strict();
export type TDiscountSync = z.infer<typeof ZDiscountSync>;

type CouponPrices = (companyId: string | null, codes: readonly string[]) => Promise<CodedCoupon[]>;

/**
 * A coupon applied to a company already paying by card reaches its Stripe subscription: the item at the
 * price before coupons and the coupons' discount, from the company's records as they are now. Setting
 * the whole state (Stripe's `discounts` list replaces the subscription's) is what makes it safe to run
 * again: a retry, the job or a second apply never stack a discount. Called after the coupon commits;
 * Stripe unreachable → logged and retried by a job, as the lifetime deal's cancellation is.
 */
export function subscriptionDiscounts(
  ctx: AppContext,
  companies: CompaniesService,
  couponPrices: CouponPrices,
  stripe: Stripe | null,
) {
  /**
   * Brings the subscription to the company's price. `attempt` goes into the Idempotency-Key with the
   * operation: Stripe answers a repeated key with its first answer, even a failure, so each later
   * attempt needs its own key, while the client's own network retry of one attempt reuses it.
   */
  async function sync(companyId: string, operation: string, attempt: number): Promise<void> {
    if (!stripe) return;
    const row = await companies.load(companyId).catch(() => null);
    // No card subscription charging (a trial, a canceled one ending with its period, a lifetime deal).
    if (!row?.subscription_id || row.state === "canceled" || isLifetimeRow(row)) return;
    const subscriptionId = row.subscription_id;
    const coupons = await couponPrices(companyId, []);
    const discountPercent = row.discount ?? 0;
    const q = quote({
      dashboards: row.services_dashboards,
      interval: row.subscription_interval === 12 ? 12 : 1,
      discountPercent,
      coupons,
    });
    const billing = stripeBillingOf(q, coupons, discountPercent);
    const currency = q.currency.toLowerCase();
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`subscription ${subscriptionId} has no item`);
    const product = typeof item.price.product === "string" ? item.price.product : item.price.product.id;
    // A subscription started before coupons were discounts had them in its item's price: re-priced.
    const repriced = item.price.unit_amount !== billing.itemUnitCents || item.quantity !== q.dashboards;
    await stripe.subscriptions.update(
      subscriptionId,
      {
        discounts: await stripeDiscountsOf(stripe, billing, currency),
        ...subscriptionTaxParams(ctx.config.stripe?.automaticTax ?? false),
        ...(repriced && {
          items: [
            {
              id: item.id,
              quantity: q.dashboards,
              price_data: {
                currency,
                product,
                unit_amount: billing.itemUnitCents,
                recurring: { interval: q.interval === 12 ? "year" : "month", interval_count: 1 },
              },
            },
          ],
        }),
        // The period already paid stays as paid: the coupon counts from the next invoice.
        proration_behavior: "none",
        metadata: { [BREAKDOWN_KEY]: JSON.stringify(breakdownOf(q, coupons, discountPercent)) },
      },
      { idempotencyKey: `subscription-discount:${subscriptionId}:${operation}:${attempt}` },
    );
  }

  const job: JobDefinition<TDiscountSync> = {
    name: DISCOUNT_SYNC_JOB,
    payload: ZDiscountSync,
    key: (payload) => `discount-sync:${payload.companyId}:${payload.operation}`,
    // 1 min, 2, 4 … 512 min: ten attempts over about 17 hours.
    retry: { attempts: 10, backoffMs: 60_000 },
    async handle(payload, context) {
      await sync(payload.companyId, payload.operation, context.attempt);
    },
  };

  return {
    job,
    /** The job's work, for tests and the worker alike: throws while Stripe still cannot be updated. */
    retry: (payload: TDiscountSync, attempt: number) => sync(payload.companyId, payload.operation, attempt),

    /**
     * The operator's re-sync (POST /ops/billing/resync-discounts, docs/operations.md "Prices at Stripe"):
     * one job per card-paying company, or for `companyId` alone, setting its subscription to what its
     * records say now. For prices that changed outside the subscription page (a discount set in the
     * database, coupons applied before they reached Stripe). Each call is its own operation, so a later
     * call runs again even when an earlier one's jobs are still queued.
     */
    async resync(companyId?: string): Promise<{ queued: number }> {
      const ids = await billingRepo(ctx.db).chargingCompanyIds(companyId);
      const operation = `resync:${new Date().toISOString()}:${newId(6)}`;
      for (const id of ids) {
        await ctx.jobs.enqueue(DISCOUNT_SYNC_JOB, { companyId: id, operation } satisfies TDiscountSync);
      }
      return { queued: ids.length };
    },

    /** After a price coupon committed: Stripe updated now, or the failure logged and left to the job. Never throws. */
    async afterCoupon(companyId: string, couponKey: string): Promise<void> {
      if (!stripe) return;
      const operation = `coupon:${couponKey}`;
      try {
        await sync(companyId, operation, 0);
        return;
      } catch (error) {
        ctx.logger.warn(
          { err: error, companyId, operation },
          "stripe: the coupon's discount did not reach the subscription; a job retries it",
        );
      }
      try {
        await ctx.jobs.enqueue(DISCOUNT_SYNC_JOB, { companyId, operation } satisfies TDiscountSync);
      } catch (error) {
        // The coupon holds; the operator finds this line and sets the discount by hand.
        ctx.logger.error({ err: error, companyId, operation }, "billing: the discount retry could not be queued");
      }
    },
  };
}

export type SubscriptionDiscounts = ReturnType<typeof subscriptionDiscounts>;
