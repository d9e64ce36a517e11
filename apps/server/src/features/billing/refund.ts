import { z } from "zod";
import type { AppContext } from "../../context";
import type { JobDefinition } from "../../infra/jobs";
import { claimEvent, idOf } from "./claim";
import { billingRepo } from "./repo";
import { isStripeError, type Stripe } from "./stripe-client";

export const CHECKOUT_REFUND_JOB = "billing.refund-unclaimed-checkout";

const ZCheckoutRefund = z.object({ sessionId: z.string() }).strict();
export type TCheckoutRefund = z.infer<typeof ZCheckoutRefund>;

/** Written once the money is given back: a retried job (or a second callback) never refunds twice. */
export const refundEvent = (sessionId: string) => `refund:${sessionId}`;
/** The claim row a refund holds, so no registration can claim a checkout being given back. */
const REFUND_HOLD = "checkout.session.refunded";

/** What became of a checkout handed to `refundUnclaimed`. */
export type RefundOutcome = "refunded" | "queued" | "not-ours";

/**
 * A paid Checkout Session that no new company claimed, given back (docs/decisions.md "Social sign-up
 * pays and takes coupons like the form", its refund bullet): a social sign-up pays before the provider
 * says who signed in, and may end as an existing user's sign-in or a refusal. The subscription is
 * canceled at Stripe and the paid invoice's payment refunded. A session claimed by a company, opened
 * for one, or never paid is left alone. Stripe unreachable: a job retries (as ./lifetime.ts does).
 */
export function checkoutRefunds(ctx: AppContext, stripe: Stripe | null) {
  /** The refund itself: throws while Stripe cannot answer; "not-ours" when there is nothing to give back. */
  async function refundAtStripe(sessionId: string): Promise<"refunded" | "not-ours"> {
    if (!stripe) return "not-ours";
    const repo = billingRepo(ctx.db);
    if (await repo.hasEvent(refundEvent(sessionId))) return "refunded";
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.retrieve(sessionId);
    } catch (error) {
      if (isStripeError(error) && error.code === "resource_missing") return "not-ours";
      throw error;
    }
    const paid = session.status === "complete" && session.payment_status !== "unpaid";
    // A session opened by an existing company is its own (its webhook applied it).
    if (!paid || session.metadata?.company_id) return "not-ours";
    const now = ctx.clock.now().toISOString();
    // Hold the claim first: a registration racing this one is refused instead of keeping a refunded plan.
    const held = await repo.recordEvent(claimEvent(sessionId), REFUND_HOLD, null, now);
    if (!held && (await repo.eventType(claimEvent(sessionId))) !== REFUND_HOLD) return "not-ours";

    const subscription = idOf(session.subscription);
    if (subscription) {
      try {
        await stripe.subscriptions.cancel(subscription);
      } catch (error) {
        if (!(isStripeError(error) && error.code === "resource_missing")) throw error;
      }
    }
    const invoice = idOf(session.invoice);
    if (invoice) {
      // Since API 2025-03 an invoice names its payments in invoice_payments (no invoice.payment_intent).
      const payments = await stripe.invoicePayments.list({ invoice, status: "paid" });
      for (const { id, payment } of payments.data) {
        const intent = idOf(payment.payment_intent);
        const charge = idOf(payment.charge);
        const target = intent ? { payment_intent: intent } : charge ? { charge } : null;
        if (!target) continue;
        try {
          await stripe.refunds.create(
            { ...target, reason: "requested_by_customer", metadata: { checkout_session: sessionId } },
            // Stripe answers a repeated key with the first refund: two workers never refund twice.
            { idempotencyKey: `refund:${sessionId}:${id}` },
          );
        } catch (error) {
          if (!(isStripeError(error) && error.code === "charge_already_refunded")) throw error;
        }
      }
    }
    await repo.recordEvent(refundEvent(sessionId), "checkout.session.refund", null, now);
    ctx.logger.info({ sessionId, subscription }, "stripe: unclaimed checkout canceled and refunded");
    return "refunded";
  }

  const job: JobDefinition<TCheckoutRefund> = {
    name: CHECKOUT_REFUND_JOB,
    payload: ZCheckoutRefund,
    key: (payload) => `checkout-refund:${payload.sessionId}`,
    // 1 min, 2, 4 … 512 min: ten attempts over about 17 hours.
    retry: { attempts: 10, backoffMs: 60_000 },
    async handle(payload) {
      await refundAtStripe(payload.sessionId);
    },
  };

  return {
    job,
    /** The job's work, for tests and the worker alike: throws while Stripe still cannot refund. */
    retry: (payload: TCheckoutRefund) => refundAtStripe(payload.sessionId),

    /**
     * Refunds now, or logs why not and leaves it to the job ("queued": the user is told it is being
     * refunded, as it will be unless a company claimed it meanwhile). Never throws.
     */
    async refundUnclaimed(sessionId: string): Promise<RefundOutcome> {
      if (!stripe) return "not-ours";
      try {
        return await refundAtStripe(sessionId);
      } catch (error) {
        ctx.logger.warn({ err: error, sessionId }, "stripe: refunding an unclaimed checkout failed; a job retries it");
      }
      try {
        await ctx.jobs.enqueue(CHECKOUT_REFUND_JOB, { sessionId } satisfies TCheckoutRefund);
      } catch (error) {
        // The operator finds this line and refunds from Stripe's dashboard.
        ctx.logger.error({ err: error, sessionId }, "billing: the refund retry could not be queued");
      }
      return "queued";
    },
  };
}

export type CheckoutRefunds = ReturnType<typeof checkoutRefunds>;
