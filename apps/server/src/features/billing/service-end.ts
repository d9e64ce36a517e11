import { BILLING_MESSAGES } from "@app/core";
import type { AppContext } from "../../context";
import type { CompaniesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { CompaniesService } from "../companies/service";
import { isStripeError, type Stripe } from "./stripe-client";

/** Where a company's paid service ends: its cancellation at the card provider, and the expiry job's pass. Part of billingService (service.ts). */
export function serviceEnd(ctx: AppContext, companies: CompaniesService, stripe: Stripe | null) {
  return {
    /**
     * The card provider's side of DELETE /api/company (companies calls it before changing anything):
     * a cancellation ends with the paid period, a deleted company's subscription ends now. A
     * subscription Stripe does not know (an operator's, a test's) has nothing to stop.
     */
    async cancelSubscription(row: CompaniesTable, immediately: boolean): Promise<void> {
      const subscriptionId = row.subscription_id;
      if (!stripe || !subscriptionId) return;
      try {
        if (immediately) await stripe.subscriptions.cancel(subscriptionId);
        else await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
      } catch (error) {
        if (isStripeError(error) && error.code === "resource_missing") return;
        if (!isStripeError(error)) throw error;
        ctx.logger.warn({ err: error }, "stripe: cancellation failed");
        throw new AppError("unavailable", BILLING_MESSAGES.providerFailed);
      }
    },

    /**
     * The expiry job (docs/product.md §4): companies whose trial or canceled period has just ended are
     * told through setState (CompanySubscriptionUpdated), once each; their standing follows from the
     * date. Returns how many were told.
     */
    async endServiceWhereDue(): Promise<number> {
      const now = ctx.clock.now();
      const ids = await companies.serviceEndedUnannounced(now);
      for (const id of ids) {
        await companies.setState(id, (row) => (row.service_ended_at ? null : { service_ended_at: now.toISOString() }));
      }
      return ids.length;
    },
  };
}
