import {
  formatMoney,
  intervalLabel,
  ORDER_STATUS_LABELS,
  orderDay,
  orderPeriod,
  quote,
  REVERSE_CHARGE_NOTE,
  type TOrder,
  type TOrderStatus,
} from "@app/core";
import { escapeHtml } from "../../infra/mail-html";
import type { OrderLine } from "./order-lines";
import { addedTaxOf, type TaxLine } from "./tax-lines";

/**
 * Who the invoice is from (config INVOICE_SELLER_*) and to (the company's billing details): the name,
 * the postal address as printed (street lines, postal code and city, country) and the VAT number.
 */
export interface InvoiceParty {
  name: string;
  addressLines: string[];
  vatId: string | null;
}

/** One row of the invoice's table: what, how many, at what, for how much (cents; negative takes off). */
export type InvoiceLine = OrderLine;

/** The tax part of an invoice: the provider's tax lines, and whether the reverse-charge note applies. */
export interface InvoiceTax {
  lines: readonly TaxLine[];
  /** The buyer is an EU business in another member state and the operator enabled the note (core `reverseChargeApplies`). */
  reverseCharge: boolean;
}

const percentText = (percent: number) => `${Number(percent.toFixed(3))}%`;

/** "VAT 19% (DE) on $100.00": the tax's name, rate, where, and on what. */
function taxLabel(line: TaxLine, money: (cents: number) => string): string {
  const rate = line.percent === null ? "" : ` ${percentText(line.percent)}`;
  const where = line.jurisdiction ? ` (${escapeHtml(line.jurisdiction)})` : "";
  const base = line.taxableCents === null ? "" : ` on ${money(line.taxableCents)}`;
  return `${escapeHtml(line.name)}${rate}${where}${base}`;
}

/**
 * The lines of an order made before its lines were stored (migration 023): its dashboards at the list price of its plan (core `quote`), then what the
 * annual plan, the company's discount and coupons took off, so the lines add up to what was charged.
 * An amount above the list price (a prorated change, an older price table) or in another currency than
 * the price table's is shown as charged, one line at the average unit price.
 */
export function invoiceLines(order: TOrder): InvoiceLine[] {
  const plan = `Dashboards, ${intervalLabel(order.interval).toLowerCase()} plan`;
  const list =
    order.interval === 1 || order.interval === 12
      ? quote({ dashboards: order.dashboards, interval: order.interval })
      : null;
  const listTotal = list ? list.listUnitCents * order.dashboards : null;
  if (!list || listTotal === null || list.currency !== order.currency || order.amountCents > listTotal) {
    return [
      {
        description: plan,
        quantity: order.dashboards,
        unitCents: Math.round(order.amountCents / Math.max(order.dashboards, 1)),
        amountCents: order.amountCents,
      },
    ];
  }
  const lines: InvoiceLine[] = [
    { description: plan, quantity: order.dashboards, unitCents: list.listUnitCents, amountCents: listTotal },
  ];
  if (listTotal > order.amountCents) {
    lines.push({
      description: "Discount",
      quantity: null,
      unitCents: null,
      amountCents: order.amountCents - listTotal,
    });
  }
  return lines;
}

/** The status stamp: a paid invoice says so; a failed one asks for the card. */
const STATUS_STYLE: Record<TOrderStatus, string> = {
  paid: "color: #166534; border-color: #16a34a;",
  failed: "color: #991b1b; border-color: #dc2626;",
  refunded: "color: #334155; border-color: #64748b;",
};

const party = (title: string, who: InvoiceParty) => `<section class="party">
  <h2>${escapeHtml(title)}</h2>
  <p><strong>${escapeHtml(who.name)}</strong>${who.addressLines.map((line) => `<br>${escapeHtml(line)}`).join("")}${
    who.vatId ? `<br>VAT ID: ${escapeHtml(who.vatId)}` : ""
  }</p>
</section>`;

/**
 * The invoice as a self-contained HTML page (no scripts, no outside resources: the PDF page loads it
 * with `setContent`), A4, every piece of text escaped.
 */
export function invoiceHtml(
  order: TOrder,
  seller: InvoiceParty,
  buyer: InvoiceParty,
  lines: readonly InvoiceLine[] = invoiceLines(order),
  tax: InvoiceTax = { lines: [], reverseCharge: false },
): string {
  const money = (cents: number) => escapeHtml(formatMoney(cents, order.currency));
  const added = addedTaxOf(tax.lines);
  // VAT actually charged is shown as charged: the note stands only where no tax was added on top.
  const reverseCharge = tax.reverseCharge && added === 0;
  const shown = tax.lines.filter((line) => !(reverseCharge && line.amountCents === 0));
  const taxRows = shown
    .filter((line) => !line.inclusive)
    .map(
      (line) =>
        `<tr class="sum"><td colspan="3">${taxLabel(line, money)}</td><td class="num">${money(line.amountCents)}</td></tr>`,
    )
    .join("\n");
  const includedRows = shown
    .filter((line) => line.inclusive)
    .map(
      (line) =>
        `<tr class="sum included"><td colspan="3">Including ${taxLabel(line, money)}</td><td class="num">${money(line.amountCents)}</td></tr>`,
    )
    .join("\n");
  const rows = lines
    .map(
      (line) => `<tr>
  <td>${escapeHtml(line.description)}</td>
  <td class="num">${line.quantity ?? ""}</td>
  <td class="num">${line.unitCents === null ? "" : money(line.unitCents)}</td>
  <td class="num">${money(line.amountCents)}</td>
</tr>`,
    )
    .join("\n");
  const period = orderPeriod(order.periodStart, order.periodEnd);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Invoice ${escapeHtml(order.number)}</title>
<style>
  @page { size: A4; margin: 18mm 16mm; }
  body { font-family: Arial, Helvetica, sans-serif; font-size: 11pt; color: #0f172a; margin: 0; }
  header { display: flex; justify-content: space-between; align-items: flex-start; margin-bottom: 28px; }
  h1 { font-size: 22pt; margin: 0 0 4px; }
  h2 { font-size: 9pt; text-transform: uppercase; letter-spacing: 0.06em; color: #475569; margin: 0 0 6px; }
  .stamp { border: 2px solid; border-radius: 6px; padding: 4px 10px; font-weight: bold; font-size: 12pt; }
  .parties { display: flex; gap: 48px; margin-bottom: 24px; }
  .party { flex: 1; }
  .party p { margin: 0; line-height: 1.45; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0 0 24px; }
  dt { color: #475569; }
  dd { margin: 0; }
  table { width: 100%; border-collapse: collapse; }
  th { text-align: left; font-size: 9pt; text-transform: uppercase; color: #475569; border-bottom: 2px solid #cbd5e1; padding: 6px 4px; }
  td { border-bottom: 1px solid #e2e8f0; padding: 8px 4px; }
  .num { text-align: right; white-space: nowrap; }
  tfoot td { border-bottom: none; padding: 4px; }
  tfoot .subtotal td { padding-top: 12px; }
  tfoot .total td { font-weight: bold; font-size: 12pt; border-top: 2px solid #cbd5e1; padding-top: 8px; }
  tfoot .included td { color: #475569; font-size: 9.5pt; }
  .note { margin-top: 20px; padding: 8px 12px; border-left: 3px solid #64748b; background: #f1f5f9; }
</style>
</head>
<body>
<header>
  <div>
    <h1>Invoice</h1>
    <div>${escapeHtml(order.number)}</div>
  </div>
  <div class="stamp" style="${STATUS_STYLE[order.status]}">${escapeHtml(ORDER_STATUS_LABELS[order.status])}</div>
</header>
<div class="parties">
${party("From", seller)}
${party("Bill to", buyer)}
</div>
<dl>
  <dt>Invoice number</dt><dd>${escapeHtml(order.number)}</dd>
  <dt>Invoice date</dt><dd>${escapeHtml(orderDay(order.date))}</dd>
  ${period ? `<dt>Service period</dt><dd>${escapeHtml(period)}</dd>` : ""}
  <dt>Plan</dt><dd>${order.dashboards} dashboards, ${escapeHtml(intervalLabel(order.interval).toLowerCase())}</dd>
</dl>
<table>
<thead><tr><th>Description</th><th class="num">Quantity</th><th class="num">Unit price</th><th class="num">Amount</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot>
<tr class="sum subtotal"><td colspan="3">Subtotal</td><td class="num">${money(order.amountCents - added)}</td></tr>
${taxRows}
<tr class="total"><td colspan="3">Total (${escapeHtml(order.currency)})</td><td class="num">${money(order.amountCents)}</td></tr>
${includedRows}
</tfoot>
</table>
${reverseCharge ? `<p class="note">${escapeHtml(REVERSE_CHARGE_NOTE)}</p>` : ""}
</body>
</html>`;
}
