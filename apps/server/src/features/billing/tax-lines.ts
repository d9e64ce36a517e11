import type { Stripe } from "./stripe-client";

/**
 * One tax the card provider computed on an invoice, as the invoice prints it: "VAT 19% (Germany)" on
 * `taxableCents`, `amountCents`. Exclusive tax is added to the subtotal; inclusive tax is already in
 * the lines' amounts and is printed as "Including …" below the total.
 */
export interface TaxLine {
  name: string;
  /** The rate (19 for 19%); null when the provider told only the amount. */
  percent: number | null;
  jurisdiction: string | null;
  amountCents: number;
  taxableCents: number | null;
  inclusive: boolean;
}

/** What a tax rate says of itself (Stripe's TaxRate: `display_name`, `percentage`, `jurisdiction`). */
export interface TaxRateFacts {
  display_name: string;
  percentage: number;
  jurisdiction: string | null;
}

/** The stored tax lines of an order; null when none were stored (an older order, or no tax). */
export function parseTaxLines(text: string | null): TaxLine[] | null {
  if (!text) return null;
  try {
    const lines = JSON.parse(text) as TaxLine[];
    const ok =
      Array.isArray(lines) &&
      lines.every(
        (line) =>
          typeof line.name === "string" &&
          Number.isSafeInteger(line.amountCents) &&
          typeof line.inclusive === "boolean",
      );
    return ok && lines.length > 0 ? lines : null;
  } catch {
    return null;
  }
}

/** The tax added on top of the lines (exclusive), in cents. */
export const addedTaxOf = (lines: readonly TaxLine[] | null) =>
  (lines ?? []).reduce((sum, line) => sum + (line.inclusive ? 0 : line.amountCents), 0);

/** A rate worked out from the amounts when the provider's rate is unknown, to two decimals. */
const impliedPercent = (amount: number, taxable: number | null) =>
  taxable ? Math.round((amount / taxable) * 10_000) / 100 : null;

/**
 * The tax of a Stripe invoice (`total_taxes`, one entry per rate, since API 2025-03-31): each named by
 * its tax rate, which `rateOf` reads from Stripe (a webhook's invoice names the rate only by id); a rate
 * it cannot read keeps the amount with a rate worked out from it.
 */
export async function taxLinesOfStripeInvoice(
  invoice: Stripe.Invoice,
  rateOf: (id: string) => Promise<TaxRateFacts | null>,
): Promise<TaxLine[]> {
  const lines: TaxLine[] = [];
  for (const tax of invoice.total_taxes ?? []) {
    const rateId = tax.tax_rate_details?.tax_rate ?? null;
    const rate = rateId ? await rateOf(rateId) : null;
    lines.push({
      name: rate?.display_name || "Tax",
      percent: rate ? rate.percentage : impliedPercent(tax.amount, tax.taxable_amount),
      jurisdiction: rate?.jurisdiction ?? null,
      amountCents: tax.amount,
      taxableCents: tax.taxable_amount,
      inclusive: tax.tax_behavior === "inclusive",
    });
  }
  return lines;
}

/**
 * The tax of a Checkout Session: its total only (`total_details.amount_tax`; the rates need the
 * invoice, whose invoice.paid replaces this with its own lines).
 */
export function taxLinesOfSession(session: Stripe.Checkout.Session): TaxLine[] | null {
  const amount = session.total_details?.amount_tax ?? 0;
  if (amount <= 0) return null;
  const total = session.amount_total ?? 0;
  return [
    {
      name: "Tax",
      percent: null,
      jurisdiction: null,
      amountCents: amount,
      taxableCents: total - amount,
      inclusive: false,
    },
  ];
}
