import { countryName, ORDER_STATUSES, reverseChargeApplies, type TOrder, type TOrderStatus } from "@app/core";
import type { AppContext } from "../../context";
import type { OrdersTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { CompaniesService } from "../companies/service";
import { billingDetailsOf } from "./billing-details";
import { type InvoiceParty, invoiceHtml } from "./invoice-document";
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
 * Where the city comes before the postal code on an envelope ("Bristol BS1 4QA"); elsewhere the postal
 * code leads ("10115 Berlin").
 */
const CITY_FIRST = new Set(["GB", "IE", "US", "CA", "AU", "NZ", "IN", "ZA"]);

/** The address a company typed (one line per line), without blank lines. */
const linesOf = (text: string | null) =>
  (text ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

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
      const company = await companies.load(companyId);
      const order = presentOrder(row);
      const details = billingDetailsOf(company);
      // The billing details as given; the company's name until a billing name is.
      const buyer: InvoiceParty = {
        name: details.name ?? company.name,
        addressLines: [
          ...linesOf(details.address),
          (CITY_FIRST.has(details.country ?? "")
            ? [details.city, details.postal_code]
            : [details.postal_code, details.city]
          )
            .filter(Boolean)
            .join(" "),
          details.country ? countryName(details.country) : "",
        ].filter(Boolean),
        vatId: details.vat_id,
      };
      const reverseCharge = reverseChargeApplies({
        enabled: ctx.config.invoiceReverseCharge,
        sellerCountry: ctx.config.invoiceSeller.country,
        buyerCountry: details.country,
        buyerVatId: details.vat_id,
      });
      // The lines stored with the order; an older order's are worked out from its plan (invoiceLines).
      const html = invoiceHtml(order, ctx.config.invoiceSeller, buyer, orderLinesOf(row) ?? undefined, {
        lines: parseTaxLines(row.tax_lines) ?? [],
        reverseCharge,
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
