import type { Db } from "../../infra/db";
import type { OrdersTable } from "../../infra/db/schema";
import { newId } from "../../infra/security";
import { type InvoiceParties, partiesColumns } from "./invoice-parties";
import type { OrderLine } from "./order-lines";
import type { TaxLine } from "./tax-lines";

export type OrderStatus = "paid" | "failed" | "refunded";

/** One provider invoice as the webhook hands it over (the number and ids are made here). */
export interface OrderFacts {
  providerRef: string;
  periodStart: string | null;
  periodEnd: string | null;
  dashboards: number;
  interval: number;
  amountCents: number;
  currency: string;
  status: OrderStatus;
  /**
   * What the invoice lists, adding up to `amountCents` less the tax added on top; null when not known
   * (the invoice falls back).
   */
  lines: OrderLine[] | null;
  /** The tax the provider computed (./tax-lines.ts); null when none. */
  taxLines: TaxLine[] | null;
  /**
   * Who the invoice is from and to when the order is first recorded; kept as they were from then on
   * (a later event for the same invoice never changes them).
   */
  parties: InvoiceParties;
}

/** The stored lines of an order; null for orders made before migration 023 (or unreadable ones). */
export function orderLinesOf(row: OrdersTable): OrderLine[] | null {
  if (!row.lines) return null;
  try {
    const lines = JSON.parse(row.lines) as OrderLine[];
    return Array.isArray(lines) && lines.length > 0 ? lines : null;
  } catch {
    return null;
  }
}

/** `INV-2026-000123`: the year the order was made and its place across all companies (docs/decisions.md). */
export function orderNumber(sequence: number, at: Date): string {
  return `INV-${at.getUTCFullYear()}-${String(sequence).padStart(6, "0")}`;
}

/** Orders and handled provider events. Every order query names its company. */
export function billingRepo(db: Db) {
  return {
    /**
     * Marks a provider event handled; false when it already was (a replay). Run first, in the same
     * transaction as the event's effect, so an effect is never applied twice and never lost.
     */
    async recordEvent(eventId: string, type: string, companyId: string | null, at: string): Promise<boolean> {
      // ON CONFLICT DO NOTHING rather than catching the violation: on PostgreSQL a failed statement
      // would abort the transaction the effect runs in. A concurrent twin waits for the first to commit.
      const result = await db
        .insertInto("payment_events")
        .values({ event_id: eventId, type, company_id: companyId, received_at: at })
        .onConflict((oc) => oc.column("event_id").doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async hasEvent(eventId: string): Promise<boolean> {
      const row = await db
        .selectFrom("payment_events")
        .select("event_id")
        .where("event_id", "=", eventId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The type an event was recorded with (tells a claim by a company from a refund's hold), or null. */
    async eventType(eventId: string): Promise<string | null> {
      const row = await db
        .selectFrom("payment_events")
        .select("type")
        .where("event_id", "=", eventId)
        .executeTakeFirst();
      return row?.type ?? null;
    },

    /**
     * The company's order for one provider invoice: added (numbered) the first time, then its status and
     * period follow the invoice (a failed charge paid on retry becomes paid; never a second order).
     */
    async upsertOrder(companyId: string, facts: OrderFacts, now: Date): Promise<OrdersTable> {
      const existing = await db
        .selectFrom("orders")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("provider_ref", "=", facts.providerRef)
        .executeTakeFirst();
      const at = now.toISOString();
      if (existing) {
        const patch = {
          status: facts.status,
          period_start: facts.periodStart ?? existing.period_start,
          period_end: facts.periodEnd ?? existing.period_end,
          amount_cents: facts.amountCents,
          // The checkout's and the invoice's account of one charge: the later one known wins.
          lines: facts.lines ? JSON.stringify(facts.lines) : existing.lines,
          tax_lines: facts.taxLines ? JSON.stringify(facts.taxLines) : existing.tax_lines,
          updated_at: at,
        };
        await db
          .updateTable("orders")
          .set(patch)
          .where("company_id", "=", companyId)
          .where("id", "=", existing.id)
          .execute();
        return { ...existing, ...patch };
      }
      // The next number across all companies; two orders racing for it collide on the unique index and
      // the webhook fails as a whole, to be retried by the provider (its event was not recorded either).
      const last = await db
        .selectFrom("orders")
        .select((eb) => eb.fn.max<number | null>("sequence").as("sequence"))
        .executeTakeFirst();
      const sequence = Number(last?.sequence ?? 0) + 1;
      const row: OrdersTable = {
        id: newId(),
        company_id: companyId,
        sequence,
        number: orderNumber(sequence, now),
        provider_ref: facts.providerRef,
        period_start: facts.periodStart,
        period_end: facts.periodEnd,
        dashboards: facts.dashboards,
        interval: facts.interval,
        amount_cents: facts.amountCents,
        currency: facts.currency,
        status: facts.status,
        lines: facts.lines ? JSON.stringify(facts.lines) : null,
        tax_lines: facts.taxLines ? JSON.stringify(facts.taxLines) : null,
        ...partiesColumns(facts.parties),
        created_at: at,
        updated_at: at,
      };
      await db.insertInto("orders").values(row).execute();
      return row;
    },

    /** One order of the company; undefined for another company's (its invoice is a 404 there). */
    orderOf(companyId: string, orderId: string) {
      return db
        .selectFrom("orders")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("id", "=", orderId)
        .executeTakeFirst();
    },

    listOrders(companyId: string) {
      return db
        .selectFrom("orders")
        .selectAll()
        .where("company_id", "=", companyId)
        .orderBy("sequence", "desc")
        .execute();
    },

    /**
     * Companies with a card subscription that may be charging (not canceled), for the operator's
     * re-sync of prices at Stripe; `companyId` narrows it to one. Not scoped to one company on purpose:
     * the operator's call spans them all.
     */
    async chargingCompanyIds(companyId?: string): Promise<string[]> {
      let query = db
        .selectFrom("companies")
        .select("id")
        .where("subscription_id", "is not", null)
        .where("state", "!=", "canceled");
      if (companyId) query = query.where("id", "=", companyId);
      return (await query.orderBy("id").execute()).map((row) => row.id);
    },
  };
}
