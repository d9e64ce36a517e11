import { z } from "zod";
import type { AppContext } from "../../context";
import type { CompaniesTable } from "../../infra/db/schema";
import type { JobDefinition } from "../../infra/jobs";
import { isStripeError, type Stripe } from "./stripe-client";

export const LIFETIME_CANCEL_JOB = "billing.cancel-replaced-subscription";

const ZLifetimeCancel = z.object({ companyId: z.string(), subscriptionId: z.string() }).strict();
export type TLifetimeCancel = z.infer<typeof ZLifetimeCancel>;

/**
 * A company served for life (a lifetime deal, features/coupons): active with no end and no card
 * subscription of ours. The card provider's events about a subscription it used to have change nothing
 * (its last `customer.subscription.deleted` must not make it canceled).
 */
export function isLifetimeRow(row: CompaniesTable): boolean {
  return row.state === "active" && row.expires_at === null && row.subscription_id === null;
}

/**
 * The Stripe subscription a lifetime deal replaced, canceled at once (docs/decisions.md, "The rest of
 * billing: lifetime deals end the card plan"). Called after the coupon is committed: the code holds whatever Stripe
 * answers. When Stripe cannot be reached the failure is logged and a job retries the cancellation
 * (exponential backoff, about a day in all), so the card is not charged again.
 */
export function lifetimeCancellation(ctx: AppContext, stripe: Stripe | null) {
  /** Throws Stripe's error when it cannot cancel; a subscription Stripe does not know is done. */
  async function cancelAtStripe(subscriptionId: string): Promise<void> {
    if (!stripe) return;
    try {
      await stripe.subscriptions.cancel(subscriptionId);
    } catch (error) {
      if (isStripeError(error) && error.code === "resource_missing") return;
      throw error;
    }
  }

  const job: JobDefinition<TLifetimeCancel> = {
    name: LIFETIME_CANCEL_JOB,
    payload: ZLifetimeCancel,
    key: (payload) => `lifetime-cancel:${payload.subscriptionId}`,
    // 1 min, 2, 4 … 512 min: ten attempts over about 17 hours.
    retry: { attempts: 10, backoffMs: 60_000 },
    async handle(payload) {
      await cancelAtStripe(payload.subscriptionId);
    },
  };

  return {
    job,
    /** The job's work, for tests and the worker alike: throws while Stripe still cannot cancel. */
    retry: (payload: TLifetimeCancel) => cancelAtStripe(payload.subscriptionId),

    /** After commit: cancels now, or logs why not and leaves it to the job. Never throws. */
    async cancelReplaced(companyId: string, subscriptionId: string): Promise<void> {
      if (!stripe) return;
      try {
        await cancelAtStripe(subscriptionId);
        ctx.logger.info({ companyId, subscriptionId }, "stripe: subscription replaced by a lifetime deal canceled");
        return;
      } catch (error) {
        ctx.logger.warn(
          { err: error, companyId, subscriptionId },
          "stripe: canceling the subscription a lifetime deal replaced failed; a job retries it",
        );
      }
      try {
        await ctx.jobs.enqueue(LIFETIME_CANCEL_JOB, { companyId, subscriptionId } satisfies TLifetimeCancel);
      } catch (error) {
        // The coupon holds; the operator finds this line and cancels by hand.
        ctx.logger.error(
          { err: error, companyId, subscriptionId },
          "billing: the cancellation retry could not be queued",
        );
      }
    },
  };
}

export type LifetimeCancellation = ReturnType<typeof lifetimeCancellation>;
