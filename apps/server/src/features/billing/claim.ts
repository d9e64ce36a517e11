import { BILLING_MESSAGES } from "@app/core";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import { AppError } from "../../infra/errors";
import { hmac } from "../../infra/security";
import { type CompaniesService, companyRecords } from "../companies/service";
import { currentParties } from "./invoice-parties";
import type { LifetimeCancellation } from "./lifetime";
import { BREAKDOWN_KEY, linesOfBreakdown, type OrderLine, parseBreakdown } from "./order-lines";
import { billingRepo } from "./repo";
import { isStripeError, type Stripe } from "./stripe-client";
import { addedTaxOf, type TaxLine, taxLinesOfSession } from "./tax-lines";
import { addMonths } from "./webhooks";

/** A paid Checkout Session nobody has claimed yet, as Stripe told it: what the new company gets. */
export interface PaidCheckout {
  sessionId: string;
  customer: string;
  subscription: string;
  invoice: string | null;
  dashboards: number;
  interval: 1 | 12;
  amountCents: number;
  currency: string;
  /** The invoice's lines as the server priced the checkout (null when the metadata does not say). */
  lines: OrderLine[] | null;
  taxLines: TaxLine[] | null;
}

/** The claim marker in `payment_events`: its primary key lets one registration, and only one, claim a session. */
export const claimEvent = (sessionId: string) => `claim:${sessionId}`;

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

/**
 * A registration claiming the checkout it paid before its account existed (docs/product.md §4
 * "Registration"; docs/decisions.md "Registration with payment"). `order_ref` is the Checkout Session,
 * `order_id` this server's signature of it (so only sessions this server opened can be named); what was
 * paid is read back from Stripe, never taken from the browser.
 */
export function checkoutClaims(
  ctx: AppContext,
  companies: CompaniesService,
  stripe: Stripe | null,
  lifetime: LifetimeCancellation,
) {
  const refused = () => AppError.validation({ order_ref: [BILLING_MESSAGES.orderNotPaid] });

  return {
    /** The `order_id` that goes with a Checkout Session this server opened. */
    orderIdOf(sessionId: string): string {
      return hmac(ctx.config.appKey, `checkout-order:${sessionId}`).slice(0, 32);
    },

    /** Reads the session from Stripe: complete, paid, a subscription, and not claimed before; else 422. */
    async verify(orderRef: string, orderId: string | undefined): Promise<PaidCheckout> {
      if (!stripe) throw AppError.validation({ order_ref: [BILLING_MESSAGES.paymentsOff] });
      if (!orderId || orderId !== this.orderIdOf(orderRef)) throw refused();
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.retrieve(orderRef);
      } catch (error) {
        if (isStripeError(error) && error.code === "resource_missing") throw refused();
        if (!isStripeError(error)) throw error;
        ctx.logger.warn({ err: error }, "stripe: checkout session read failed");
        throw new AppError("unavailable", BILLING_MESSAGES.providerFailed);
      }
      const customer = idOf(session.customer);
      const subscription = idOf(session.subscription);
      const paid = session.status === "complete" && session.payment_status !== "unpaid";
      // A session opened for an existing company belongs to it (its webhook already applied it).
      if (!paid || !customer || !subscription || session.metadata?.company_id) throw refused();
      if (await billingRepo(ctx.db).hasEvent(claimEvent(session.id))) throw refused();
      const count = Number(session.metadata?.dashboards);
      const dashboards = Number.isSafeInteger(count) && count > 0 ? count : 1;
      const interval = session.metadata?.interval === "12" ? 12 : 1;
      const amountCents = session.amount_total ?? 0;
      const breakdown = parseBreakdown(session.metadata?.[BREAKDOWN_KEY]);
      const taxLines = taxLinesOfSession(session);
      return {
        sessionId: session.id,
        customer,
        subscription,
        invoice: idOf(session.invoice),
        dashboards,
        interval,
        amountCents,
        currency: (session.currency ?? "usd").toUpperCase(),
        lines: breakdown && linesOfBreakdown(breakdown, dashboards, interval, amountCents - addedTaxOf(taxLines)),
        taxLines,
      };
    },

    /**
     * In the registration's transaction, once the company exists: marks the session claimed (a second
     * claim racing this one inserts nothing and fails the whole registration), makes the company active
     * with the paid plan and Stripe's ids through companies, and records the first order.
     */
    async claim(tx: Db, companyId: string, paid: PaidCheckout): Promise<void> {
      const now = ctx.clock.now();
      const repo = billingRepo(tx);
      if (
        !(await repo.recordEvent(claimEvent(paid.sessionId), "checkout.session.claimed", companyId, now.toISOString()))
      ) {
        throw refused();
      }
      // The first period: one interval from now until Stripe's next invoice.paid tells its own.
      const periodEnd = addMonths(now, paid.interval).toISOString();
      await companies.setStateInside(tx, companyId, {
        state: "active",
        subscription_id: paid.subscription,
        stripe_customer_id: paid.customer,
        services_dashboards: paid.dashboards,
        subscription_interval: paid.interval,
        expires_at: periodEnd,
        next_charge_at: periodEnd,
        cancellation: null,
      });
      const company = await companyRecords(tx).find(companyId);
      if (!company) throw new Error(`company ${companyId} vanished inside its own registration`);
      await repo.upsertOrder(
        companyId,
        {
          providerRef: paid.invoice ?? paid.sessionId,
          periodStart: now.toISOString(),
          periodEnd,
          dashboards: paid.dashboards,
          interval: paid.interval,
          amountCents: paid.amountCents,
          currency: paid.currency,
          status: "paid",
          lines: paid.lines,
          taxLines: paid.taxLines,
          parties: currentParties(ctx.config, company),
        },
        now,
      );
    },

    /**
     * After the registration committed: the subscription at Stripe learns its company, so later
     * webhooks find it by metadata too (they already do by the customer). Failing here loses nothing.
     */
    async tagSubscription(companyId: string, paid: PaidCheckout, lifetimeDeal = false): Promise<void> {
      // A lifetime code applied at sign-up replaced the subscription just paid: it is canceled instead.
      if (lifetimeDeal) return lifetime.cancelReplaced(companyId, paid.subscription);
      if (!stripe) return;
      try {
        await stripe.subscriptions.update(paid.subscription, { metadata: { company_id: companyId } });
      } catch (error) {
        if (!isStripeError(error)) throw error;
        ctx.logger.warn({ err: error }, "stripe: tagging the claimed subscription failed");
      }
    },
  };
}

export type CheckoutClaims = ReturnType<typeof checkoutClaims>;
