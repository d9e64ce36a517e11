import { ORDER_STATUSES, type TOrder, type TOrderStatus } from "@app/core";
import type { AppContext } from "../../context";
import type { OrdersTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { CompaniesService } from "../companies/service";
import { invoiceHtml } from "./invoice-document";
import { currentParties, storedParties } from "./invoice-parties";
import { billingRepo, orderLinesOf } from "./repo";
import { parseTaxLines } from "./tax-lines";

const isStatus = (value: string): value is TOrderStatus => (ORDER_STATUSES as readonly string[]).includes(value);

/** An order row as the invoices list and PDF show it. */
export function presentOrder(row: OrdersTable): TOrder {
  return {
    id: row.id,
    number: row.number,
    date: row.created_at,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    dashboards: row.dashboards,
    interval: row.interval,
    amountCents: row.amount_cents,
    currency: row.currency,
    // The webhook writes only these; anything else would be a bug shown honestly as failed, not paid.
    status: isStatus(row.status) ? row.status : "failed",
  };
}

/**
 * Invoices (docs/decisions.md, "Invoices"): the company's orders, and each as a PDF made by the product's PDF pipeline
 * (the shared headless browser pool: the invoice's own HTML set on a fresh page, then printed).
 */
export function invoicesService(ctx: AppContext, companies: CompaniesService) {
  const repo = billingRepo(ctx.db);
  return {
    async listOrders(companyId: string): Promise<TOrder[]> {
      return (await repo.listOrders(companyId)).map(presentOrder);
    },

    /** The invoice PDF of one of the company's orders; another company's order is not found. */
    async invoicePdf(companyId: string, orderId: string): Promise<{ filename: string; bytes: Buffer }> {
      const row = await repo.orderOf(companyId, orderId);
      if (!row) throw AppError.notFound();
      const order = presentOrder(row);
      // As issued; an order recorded before the parties were stored prints from the current details.
      const parties = storedParties(row) ?? currentParties(ctx.config, await companies.load(companyId));
      // The lines stored with the order; an older order's are worked out from its plan (invoiceLines).
      const html = invoiceHtml(order, parties.seller, parties.buyer, orderLinesOf(row) ?? undefined, {
        lines: parseTaxLines(row.tax_lines) ?? [],
        reverseCharge: parties.reverseCharge,
      });
      const bytes = await ctx.browser.withPage(async (page) => {
        // Nothing on the page comes from the network: the HTML is whole, with its styles inline.
        await page.setContent(html, { waitUntil: "load" });
        return page.pdf({ format: "A4", printBackground: true, preferCSSPageSize: true });
      });
      return { filename: `${order.number}.pdf`, bytes };
    },
  };
}

export type InvoicesService = ReturnType<typeof invoicesService>;
