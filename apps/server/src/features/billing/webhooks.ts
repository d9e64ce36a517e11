import { BILLING_MESSAGES } from "@app/core";
import type { AppContext } from "../../context";
import type { CompaniesTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { companyChanged } from "../audit/events";
import { type AuditEvent, type AuditLog, auditLog, STRIPE_ACTOR } from "../audit/record";
import { type CompaniesService, type CompanyStatePatch, companyRecords } from "../companies/service";
import { currentParties, type InvoicingConfig } from "./invoice-parties";
import { isLifetimeRow } from "./lifetime";
import { BREAKDOWN_KEY, linesOfBreakdown, linesOfStripeInvoice, parseBreakdown } from "./order-lines";
import { billingRepo, type OrderFacts } from "./repo";
import { isStripeError, type Stripe } from "./stripe-client";
import { addedTaxOf, type TaxRateFacts, taxLinesOfSession, taxLinesOfStripeInvoice } from "./tax-lines";

/** What one Stripe event does to one company: its state change and the order it records. */
export interface Effect {
  companyId: string;
  patch: (row: CompaniesTable) => CompanyStatePatch | null;
  /** The order it records; its parties are read when it is recorded (applyEffect). */
  order: Omit<OrderFacts, "parties"> | null;
  /**
   * The audit row of a change made at Stripe (its billing portal), worked out from the company as it is
   * in the effect's transaction: null when the company already stands so (the change was made here and
   * recorded with its member, and this is Stripe's echo of it).
   */
  audit?: (row: CompaniesTable) => AuditEvent | null;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

const fromUnix = (seconds: number | null | undefined): string | null =>
  seconds == null ? null : new Date(seconds * 1000).toISOString();

/** `months` after `from`, on the calendar (the end of a period Stripe has not told yet). */
export function addMonths(from: Date, months: number): Date {
  const next = new Date(from);
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

/**
 * A checkout completing for a company served for life: the registration's own (its session names no
 * company) was replaced by the lifetime code and is only recorded as an order; a checkout the lifetime
 * company opened itself later (its id in the metadata) buys a plan as any other.
 */
const replacedByLifetime = (current: CompaniesTable, metadataCompanyId: string | undefined) =>
  isLifetimeRow(current) && metadataCompanyId !== current.id;

const positiveInt = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
};

/**
 * A paid Checkout Session of `row`'s: the company is active with the paid plan and Stripe's ids, and the
 * first invoice is an order. Stripe's `checkout.session.completed` and the page's own check of the
 * session (./confirm.ts) both apply it.
 */
export function checkoutEffect(session: Stripe.Checkout.Session, row: CompaniesTable, now: Date): Effect {
  const customer = idOf(session.customer);
  const dashboards = positiveInt(session.metadata?.dashboards, row.services_dashboards);
  const interval = positiveInt(session.metadata?.interval, row.subscription_interval ?? 1);
  // The session carries no period: until invoice.paid tells the real one, it is one interval from now.
  const periodEnd = addMonths(now, interval).toISOString();
  const amountCents = session.amount_total ?? 0;
  const breakdown = parseBreakdown(session.metadata?.[BREAKDOWN_KEY]);
  const taxLines = taxLinesOfSession(session);
  return {
    companyId: row.id,
    patch: (current) =>
      replacedByLifetime(current, session.metadata?.company_id)
        ? null
        : {
            state: "active",
            subscription_id: idOf(session.subscription),
            stripe_customer_id: customer ?? row.stripe_customer_id,
            services_dashboards: dashboards,
            subscription_interval: interval,
            expires_at: periodEnd,
            next_charge_at: periodEnd,
            cancellation: null,
          },
    order: {
      providerRef: idOf(session.invoice) ?? session.id,
      periodStart: now.toISOString(),
      periodEnd,
      dashboards,
      interval,
      amountCents,
      currency: (session.currency ?? "usd").toUpperCase(),
      status: "paid",
      // The lines add up to what was charged before the tax on top.
      lines: breakdown && linesOfBreakdown(breakdown, dashboards, interval, amountCents - addedTaxOf(taxLines)),
      taxLines,
    },
  };
}

/**
 * Applies an effect once per `eventId`: the id is recorded in `payment_events` in the same transaction as
 * the state change and the order, so a second delivery (or a second check) changes nothing. True when
 * this call applied it. The order is recorded with the invoice's parties as they stand in that
 * transaction (./invoice-parties.ts).
 */
export async function applyEffect(
  config: InvoicingConfig,
  companies: CompaniesService,
  effect: Effect,
  event: { id: string; type: string },
  now: Date,
  audit: AuditLog | null = null,
): Promise<boolean> {
  let recorded = false;
  await companies.setState(effect.companyId, effect.patch, async (tx) => {
    const repo = billingRepo(tx);
    recorded = await repo.recordEvent(event.id, event.type, effect.companyId, now.toISOString());
    if (!recorded) return false;
    if (!effect.order && !effect.audit) return true;
    const company = await companyRecords(tx).find(effect.companyId);
    if (!company) return false;
    if (effect.order) {
      await repo.upsertOrder(effect.companyId, { ...effect.order, parties: currentParties(config, company) }, now);
    }
    // Before the patch, in its transaction: the row says whether Stripe's change is news here.
    const auditEvent = effect.audit?.(company) ?? null;
    if (audit && auditEvent) await audit.record(tx, auditEvent);
    return true;
  });
  return recorded;
}

/** Months of a Stripe price's recurring interval (our subscription_interval). */
function monthsOf(recurring: { interval: string; interval_count: number } | null | undefined): number | null {
  if (!recurring) return null;
  if (recurring.interval === "year") return 12 * recurring.interval_count;
  return recurring.interval === "month" ? recurring.interval_count : null;
}

/** What a subscription Stripe reports means for `row`: a patch and the audit row it makes, or null. */
type PortalChange = { patch: CompanyStatePatch; event: AuditEvent };

/**
 * customer.subscription.updated: a change made in Stripe's billing portal (docs/decisions.md, "Billing
 * changes made at Stripe in the audit log"). Compared with the company as it stands, so the echo of a
 * change made here (cancel, plan change: already applied and recorded with its member) changes nothing.
 * Canceling keeps service to the period's end as DELETE /api/company does; taking it back reopens the
 * next charge; another quantity or interval is the plan. Recorded with Stripe as the actor.
 */
export function portalSubscriptionEffect(subscription: Stripe.Subscription, row: CompaniesTable | null): Effect | null {
  if (!row) return null;
  const item = subscription.items.data[0];
  const periodEnd = fromUnix(item?.current_period_end);
  const change = (current: CompaniesTable): PortalChange | null => {
    if (isLifetimeRow(current) || current.subscription_id !== subscription.id) return null;
    if (subscription.status !== "active" && subscription.status !== "past_due") return null;
    const by = (action: Parameters<typeof companyChanged>[0], details?: Record<string, unknown>) => ({
      ...companyChanged(action, current.id, details),
      actor: STRIPE_ACTOR,
    });
    if (subscription.cancel_at_period_end && current.state !== "canceled") {
      const end = periodEnd ?? current.next_charge_at ?? current.expires_at;
      return { patch: { state: "canceled", expires_at: end, next_charge_at: null }, event: by("billing.canceled") };
    }
    if (!subscription.cancel_at_period_end && current.state === "canceled" && periodEnd) {
      const patch: CompanyStatePatch = {
        state: subscription.status === "past_due" ? "overdue" : "active",
        expires_at: periodEnd,
        next_charge_at: periodEnd,
        cancellation: null,
      };
      return { patch, event: by("billing.resumed") };
    }
    const dashboards = item?.quantity ?? current.services_dashboards;
    const interval = monthsOf(item?.price.recurring) ?? current.subscription_interval ?? 1;
    if (dashboards === current.services_dashboards && interval === current.subscription_interval) return null;
    return {
      patch: { services_dashboards: dashboards, subscription_interval: interval },
      event: by("billing.plan_changed", { dashboards, interval }),
    };
  };
  return {
    companyId: row.id,
    patch: (current) => change(current)?.patch ?? null,
    order: null,
    audit: (current) => change(current)?.event ?? null,
  };
}

/** customer.updated names the default card among what changed: a card put in Stripe's billing portal. */
function defaultCardChanged(previous: unknown): boolean {
  const settings = (previous as { invoice_settings?: unknown } | undefined)?.invoice_settings;
  return typeof settings === "object" && settings !== null && "default_payment_method" in settings;
}

/** A new default card: nothing changes here but the log, with Stripe as the actor. */
function portalCardEffect(row: CompaniesTable | null): Effect | null {
  if (!row) return null;
  const event = { ...companyChanged("billing.card_changed", row.id), actor: STRIPE_ACTOR };
  return { companyId: row.id, patch: () => null, order: null, audit: () => event };
}

/**
 * POST /api/payment/webhook (docs/decisions.md "Billing: subscription lifecycle and Stripe checkout"):
 * the signature is checked on the exact bytes; the event id is recorded in `payment_events` in the same
 * transaction as its effect, so a replay answers 200 and changes nothing. Events name their company in
 * metadata (`company_id`, set at checkout) or by the Stripe customer stored on the company.
 */
export function webhookHandler(ctx: AppContext, companies: CompaniesService, stripe: Stripe | null) {
  const secret = ctx.config.stripe?.webhookSecret ?? null;
  const audit = auditLog(ctx);

  async function companyOf(metadataId: string | undefined, customer: string | null): Promise<CompaniesTable | null> {
    if (metadataId) {
      const row = await companies.load(metadataId).catch(() => null);
      if (row) return row;
    }
    return customer ? companies.findByStripeCustomer(customer) : null;
  }

  /**
   * A tax rate's name and percentage (a webhook's invoice names its rates by id only); null when Stripe
   * cannot tell it now: the invoice then shows the amount with the rate worked out from it.
   */
  async function taxRateOf(id: string): Promise<TaxRateFacts | null> {
    if (!stripe) return null;
    try {
      return await stripe.taxRates.retrieve(id);
    } catch (error) {
      if (!isStripeError(error)) throw error;
      ctx.logger.warn({ err: error, taxRate: id }, "stripe: tax rate read failed");
      return null;
    }
  }

  async function effectOf(event: Stripe.Event, now: Date): Promise<Effect | null> {
    switch (event.type) {
      case "checkout.session.completed": {
        const session = event.data.object;
        if (session.mode !== "subscription" || session.payment_status === "unpaid") return null;
        // A visitor's session (registration) has no company yet: the account it pays for claims it.
        const row = await companyOf(
          session.metadata?.company_id || session.client_reference_id || undefined,
          idOf(session.customer),
        );
        return row ? checkoutEffect(session, row, now) : null;
      }
      case "invoice.paid":
      case "invoice.payment_failed": {
        const invoice = event.data.object;
        const details = invoice.parent?.subscription_details ?? null;
        const customer = idOf(invoice.customer);
        const row = await companyOf(details?.metadata?.company_id, customer);
        if (!row || !invoice.id) return null;
        const line = invoice.lines.data[0];
        const periodStart = fromUnix(line?.period.start);
        const periodEnd = fromUnix(line?.period.end);
        const subscriptionId = idOf(details?.subscription) ?? row.subscription_id;
        const paid = event.type === "invoice.paid";
        const dashboards = positiveInt(details?.metadata?.dashboards, line?.quantity ?? row.services_dashboards);
        const interval = positiveInt(details?.metadata?.interval, row.subscription_interval ?? 1);
        const amountCents = paid ? invoice.amount_paid : invoice.amount_due;
        const taxLines = await taxLinesOfStripeInvoice(invoice, taxRateOf);
        const netCents = amountCents - addedTaxOf(taxLines);
        // One line for the plan as priced here: the server's breakdown; anything else (a prorated
        // change) is listed as Stripe itemised it. Either adds up to the charge before the tax on top.
        const breakdown = invoice.lines.data.length === 1 ? parseBreakdown(details?.metadata?.[BREAKDOWN_KEY]) : null;
        const lines =
          (breakdown && linesOfBreakdown(breakdown, dashboards, interval, netCents)) ??
          linesOfStripeInvoice(invoice, netCents);
        return {
          companyId: row.id,
          patch: (current) =>
            // The subscription a lifetime deal replaced (a renewal racing its cancellation): only the order.
            isLifetimeRow(current)
              ? null
              : paid
                ? {
                    state: "active",
                    subscription_id: subscriptionId,
                    stripe_customer_id: customer ?? row.stripe_customer_id,
                    ...(periodEnd && { expires_at: periodEnd, next_charge_at: periodEnd }),
                  }
                : // Banner 128: the card failed; Stripe retries, service goes on until it gives up.
                  { state: "overdue", subscription_id: subscriptionId },
          order: {
            providerRef: invoice.id,
            periodStart,
            periodEnd,
            dashboards,
            interval,
            amountCents,
            currency: invoice.currency.toUpperCase(),
            status: paid ? "paid" : "failed",
            lines,
            taxLines: taxLines.length > 0 ? taxLines : null,
          },
        };
      }
      case "customer.subscription.deleted": {
        const subscription = event.data.object;
        const row = await companyOf(subscription.metadata?.company_id, idOf(subscription.customer));
        if (!row) return null;
        const endedAt = fromUnix(subscription.ended_at) ?? now.toISOString();
        return {
          companyId: row.id,
          // An older subscription ending (the company has bought another since, or a lifetime deal
          // replaced it) changes nothing. The subscription id stays: banner 126 speaks of a canceled
          // subscription.
          patch: (current) =>
            isLifetimeRow(current) || (current.subscription_id && current.subscription_id !== subscription.id)
              ? null
              : { state: "canceled", expires_at: endedAt, next_charge_at: null },
          order: null,
        };
      }
      case "customer.subscription.updated":
        return portalSubscriptionEffect(event.data.object, await companyOfSubscription(event.data.object));
      case "customer.updated": {
        if (!defaultCardChanged(event.data.previous_attributes)) return null;
        const customer = event.data.object;
        return portalCardEffect(await companyOf(customer.metadata?.company_id, customer.id));
      }
      default:
        return null;
    }
  }

  function companyOfSubscription(subscription: Stripe.Subscription) {
    return companyOf(subscription.metadata?.company_id, idOf(subscription.customer));
  }

  return {
    async handleWebhook(text: string, signature: string | undefined): Promise<{ duplicate: boolean }> {
      if (!stripe || !secret) throw new AppError("bad_request", BILLING_MESSAGES.paymentsOff);
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(text, signature ?? "", secret);
      } catch {
        throw new AppError("bad_request", BILLING_MESSAGES.badSignature);
      }
      const now = ctx.clock.now();
      const at = now.toISOString();
      const effect = await effectOf(event, now);
      if (!effect) {
        // Nothing to change (another event type, or no company of ours): recorded all the same.
        const recorded = await billingRepo(ctx.db).recordEvent(event.id, event.type, null, at);
        return { duplicate: !recorded };
      }
      const recorded = await applyEffect(ctx.config, companies, effect, event, now, audit);
      return { duplicate: !recorded };
    },
  };
}
