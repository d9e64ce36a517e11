import { type BillingInterval, formatMoney, type PriceCoupon, PricingError, quote } from "@app/core";

/** The price lines a page shows (docs/product.md §9: dollars with 2 decimals). */
export interface PriceLines {
  /** "10 dashboards × $144.00": the count at one dashboard's list price for the interval. */
  listLabel: string;
  /** That count at the list price, before any discount. */
  list: string;
  /** Everything taken off the list (yearly, company, coupons), or null when nothing is. */
  discount: string | null;
  total: string;
  /** One dashboard's final price for the interval (total = dashboards × unit). */
  unit: string;
  per: "month" | "year";
}

/** Dollars with 2 decimals and thousands separators ("$1,036.80"), as invoices print them. */
const dollars = (cents: number) => formatMoney(cents, "USD");

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
    // The lines add up as written: list − discount = total, and total = dashboards × unit.
    const listCents = q.listUnitCents * q.dashboards;
    const offCents = listCents - q.totalCents;
    return {
      listLabel: `${q.dashboards} ${q.dashboards === 1 ? "dashboard" : "dashboards"} × ${dollars(q.listUnitCents)}`,
      list: dollars(listCents),
      discount: offCents > 0 ? dollars(offCents) : null,
      total: dollars(q.totalCents),
      unit: dollars(q.unitCents),
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
