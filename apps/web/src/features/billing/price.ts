import { type BillingInterval, type PriceCoupon, PricingError, quote } from "@app/core";

/** The price lines a page shows (docs/product.md §9: dollars with 2 decimals). */
export interface PriceLines {
  unit: string;
  discount: string | null;
  total: string;
  per: "month" | "year";
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * The live price of a plan with core `quote`, as the page shows it while the user chooses (the server
 * prices the checkout again and charges its own). `discount` is everything taken off one dashboard's
 * list price (yearly, company, coupons); null for a plan no price can be given for.
 */
export function livePrice(input: {
  dashboards: number | null;
  interval: BillingInterval;
  coupons?: readonly PriceCoupon[];
  discountPercent?: number;
}): PriceLines | null {
  if (!input.dashboards) return null;
  try {
    const q = quote({
      dashboards: input.dashboards,
      interval: input.interval,
      coupons: input.coupons ?? [],
      discountPercent: input.discountPercent ?? 0,
    });
    const listUnitCents = q.listUnitCents;
    const offCents = (listUnitCents - q.unitCents) * q.dashboards;
    return {
      unit: dollars(q.unitCents),
      discount: offCents > 0 ? dollars(offCents) : null,
      total: dollars(q.totalCents),
      per: q.interval === 12 ? "year" : "month",
    };
  } catch (error) {
    if (error instanceof PricingError) return null;
    throw error;
  }
}

/** docs/product.md §4: the name split on its first space into first and last name for the checkout. */
export function splitName(name: string): { first_name: string; last_name: string } {
  const trimmed = name.trim();
  const at = trimmed.indexOf(" ");
  return at < 0
    ? { first_name: trimmed, last_name: "" }
    : { first_name: trimmed.slice(0, at), last_name: trimmed.slice(at + 1).trim() };
}
