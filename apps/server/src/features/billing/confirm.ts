import { BILLING_MESSAGES, type TCompany } from "@app/core";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import type { CompaniesService } from "../companies/service";
import { idOf } from "./claim";
import { isStripeError, type Stripe } from "./stripe-client";
import { applyEffect, checkoutEffect } from "./webhooks";

/** The marker in `payment_events` of a checkout the page's check applied (one application per session). */
export const confirmEvent = (sessionId: string) => `confirm:${sessionId}`;

/**
 * POST /api/company/subscription/confirm (docs/decisions.md "Payment received only once confirmed"): after
 * the embedded checkout reports completion, the subscription page asks whether the payment is in. The
 * answer is the server's, never the browser's: confirmed when the company already runs the session's
 * subscription (Stripe's webhook came), or when Stripe says the session is complete and paid, in which
 * case the webhook's own effect is applied now (once; the webhook arriving later changes nothing more).
 */
export function checkoutConfirmation(ctx: AppContext, companies: CompaniesService, stripe: Stripe | null) {
  const notOurs = () => AppError.validation({ order_ref: [BILLING_MESSAGES.orderNotPaid] });

  return {
    async confirm(companyId: string, orderRef: string): Promise<{ confirmed: boolean; company: TCompany }> {
      if (!stripe) throw AppError.validation({ general: [BILLING_MESSAGES.paymentsOff] });
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.retrieve(orderRef);
      } catch (error) {
        if (isStripeError(error) && error.code === "resource_missing") throw notOurs();
        if (!isStripeError(error)) throw error;
        ctx.logger.warn({ err: error, companyId }, "stripe: checkout session read failed");
        throw new AppError("unavailable", BILLING_MESSAGES.providerFailed);
      }
      // Only a session this server opened for this company (its id is in the metadata the server set).
      if (session.mode !== "subscription" || session.metadata?.company_id !== companyId) throw notOurs();
      const subscription = idOf(session.subscription);
      const runs = async () => {
        const row = await companies.load(companyId);
        return subscription !== null && row.subscription_id === subscription && row.state !== "canceled";
      };
      const answer = async (confirmed: boolean) => ({ confirmed, company: await companies.get(companyId) });
      if (await runs()) return answer(true);
      const paid = session.status === "complete" && session.payment_status !== "unpaid" && subscription !== null;
      if (!paid) return answer(false);
      const now = ctx.clock.now();
      const applied = await applyEffect(
        ctx.config,
        companies,
        checkoutEffect(session, await companies.load(companyId), now),
        { id: confirmEvent(session.id), type: "checkout.session.confirmed" },
        now,
      );
      if (applied)
        ctx.logger.info({ companyId, session: session.id }, "billing: checkout confirmed by reading it from Stripe");
      // What the company runs now decides (a session applied before and since replaced is not "received").
      return answer(await runs());
    },
  };
}

export type CheckoutConfirmation = ReturnType<typeof checkoutConfirmation>;
