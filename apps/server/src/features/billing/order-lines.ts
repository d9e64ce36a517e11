import {
  DEFAULT_PRICE_TABLE,
  intervalLabel,
  PRICE_COUPON_TYPES,
  type PriceAdjustmentSource,
  type PriceCoupon,
  type Quote,
} from "@app/core";
import type { Stripe } from "./stripe-client";

/** One row of an invoice: what, how many, at what, for how much (cents; negative takes off). */
export interface OrderLine {
  description: string;
  quantity: number | null;
  unitCents: number | null;
  amountCents: number;
}

/** A priced coupon with the code the invoice names it by. */
export type CodedCoupon = PriceCoupon & { code: string };

/**
 * How a price was made, small enough for Stripe's metadata (a value holds at most 500 characters):
 * the list unit price and each step taken off one dashboard, with what it needs to be named (the
 * percent, the coupon codes). At most four steps: annual, the company's discount, one percent coupon
 * step and one fixed coupon each (core stacking allows one of each type).
 */
export interface PriceBreakdown {
  l: number;
  a: Array<[source: PriceAdjustmentSource, cents: number, label: string]>;
}

/** The Stripe metadata key the breakdown rides under (session and subscription). */
export const BREAKDOWN_KEY = "price_lines";

const percentText = (value: number) => `${Number(value.toFixed(2))}%`;

/**
 * The breakdown of a quote: each adjustment named. Percent coupons were compounded into one step by
 * core `quote`, so that step names all their codes; fixed coupons take effect in order, each a step,
 * until the price reaches 0.
 */
export function breakdownOf(q: Quote, coupons: readonly CodedCoupon[], companyPercent: number): PriceBreakdown {
  const percentCoupons = coupons.filter((c) => c.type === PRICE_COUPON_TYPES.discount);
  const fixedCoupons = coupons.filter((c) => c.type === PRICE_COUPON_TYPES.fixed && c.value > 0);
  let fixedIndex = 0;
  const labels: Record<PriceAdjustmentSource, () => string> = {
    annual: () => percentText(DEFAULT_PRICE_TABLE.annualDiscountPercent),
    company: () => percentText(companyPercent),
    "price.discount": () => percentCoupons.map((c) => `${c.code} ${percentText(c.value)}`).join(", "),
    "price.fixed": () => fixedCoupons[fixedIndex++]?.code ?? "",
  };
  const a = q.adjustments.map((adjustment): PriceBreakdown["a"][number] => [
    adjustment.source,
    adjustment.amountCents,
    labels[adjustment.source](),
  ]);
  return { l: q.listUnitCents, a };
}

/** The breakdown back from Stripe's metadata; null when absent or not ours. */
export function parseBreakdown(text: string | undefined): PriceBreakdown | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as PriceBreakdown;
    const sources: PriceAdjustmentSource[] = ["annual", "company", "price.discount", "price.fixed"];
    const ok =
      Number.isSafeInteger(value.l) &&
      Array.isArray(value.a) &&
      value.a.every(
        (step) =>
          Array.isArray(step) &&
          sources.includes(step[0]) &&
          Number.isSafeInteger(step[1]) &&
          typeof step[2] === "string",
      );
    return ok ? value : null;
  } catch {
    return null;
  }
}

function describeStep([source, , label]: PriceBreakdown["a"][number]): string {
  switch (source) {
    case "annual":
      return `Annual plan discount (${label})`;
    case "company":
      return `Company discount (${label})`;
    case "price.discount":
      return `${label.includes(",") ? "Coupons" : "Coupon"} ${label}`;
    case "price.fixed":
      return `Coupon ${label}`;
  }
}

/**
 * The lines of `dashboards` at a broken-down price: the list price, then each discount per dashboard,
 * adding up to dashboards × the final unit price. Null when that is not `chargedCents` (the breakdown
 * belongs to another price than what was charged): the caller falls back to the provider's lines.
 */
export function linesOfBreakdown(
  breakdown: PriceBreakdown,
  dashboards: number,
  interval: number,
  chargedCents: number,
): OrderLine[] | null {
  const lines: OrderLine[] = [
    {
      description: `Dashboards, ${intervalLabel(interval).toLowerCase()} plan`,
      quantity: dashboards,
      unitCents: breakdown.l,
      amountCents: dashboards * breakdown.l,
    },
  ];
  for (const step of breakdown.a) {
    lines.push({
      description: describeStep(step),
      quantity: dashboards,
      unitCents: -step[1],
      amountCents: -dashboards * step[1],
    });
  }
  return sumOf(lines) === chargedCents ? lines : null;
}

export const sumOf = (lines: readonly OrderLine[]) => lines.reduce((sum, line) => sum + line.amountCents, 0);

/**
 * An invoice's lines as Stripe tells them (a prorated plan change has one line for the unused time
 * and one for the new plan). Whatever Stripe took off or added beyond its lines (its own discounts,
 * tax) is one more line, so the lines always add up to the invoice's total.
 */
export function linesOfStripeInvoice(invoice: Stripe.Invoice, totalCents: number): OrderLine[] {
  const lines: OrderLine[] = invoice.lines.data.map((line) => {
    const quantity = line.quantity ?? null;
    return {
      description: line.description ?? "Dashboards",
      quantity,
      unitCents: quantity ? Math.round(line.amount / quantity) : null,
      amountCents: line.amount,
    };
  });
  const rest = totalCents - sumOf(lines);
  if (rest !== 0) {
    lines.push({
      description: rest < 0 ? "Discount" : "Other charges",
      quantity: null,
      unitCents: null,
      amountCents: rest,
    });
  }
  return lines;
}
