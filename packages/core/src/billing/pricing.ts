/**
 * Subscription pricing (docs/product.md §9): the price per dashboard depends on the interval and the
 * count, with discounts; the total is dashboards times the final unit price, in dollars with 2 decimals.
 * The spec shows no table, so the table is data (`PriceTable`) with a default recorded in
 * docs/decisions.md. Everything is computed in integer cents so the total is exact.
 */

export type BillingInterval = 1 | 12;

/** One volume tier: from `minDashboards` up, every dashboard costs `monthlyCents` a month. */
export interface PriceTier {
  minDashboards: number;
  monthlyCents: number;
}

export interface PriceTable {
  currency: "USD";
  /** Ascending by `minDashboards`, the first starting at 1. */
  tiers: readonly PriceTier[];
  /** Percent off the yearly price (12 × monthly) when paying every 12 months. */
  annualDiscountPercent: number;
}

/**
 * Default table: volume ("all units") pricing, the whole order at the rate of the tier its count falls
 * in, and 20% off for paying yearly. Registration's default of 25 dashboards lands on the $10 tier.
 */
export const DEFAULT_PRICE_TABLE: PriceTable = {
  currency: "USD",
  tiers: [
    { minDashboards: 1, monthlyCents: 1500 },
    { minDashboards: 10, monthlyCents: 1200 },
    { minDashboards: 25, monthlyCents: 1000 },
    { minDashboards: 50, monthlyCents: 800 },
    { minDashboards: 100, monthlyCents: 600 },
  ],
  annualDiscountPercent: 20,
};

/**
 * A coupon as the price sees it (the coupon rules decide which are applied; docs/product.md §8):
 * `price.discount` is a percent, `price.fixed` whole cents off one dashboard's price.
 */
export interface PriceCoupon {
  type: string;
  value: number;
}

/** Coupon types that change the price; other types (bonus dashboards, lifetime deals) are ignored here. */
export const PRICE_COUPON_TYPES = { discount: "price.discount", fixed: "price.fixed" } as const;

export type PricingErrorCode =
  | "invalid_dashboards"
  | "invalid_interval"
  | "invalid_discount"
  | "invalid_coupon"
  | "invalid_table";

/** Thrown for inputs no price can be given for; `code` tells callers which field to blame. */
export class PricingError extends Error {
  constructor(
    readonly code: PricingErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "PricingError";
  }
}

export interface QuoteInput {
  dashboards: number;
  interval: BillingInterval;
  table?: PriceTable;
  /** The company's own `discount` percent (docs/product.md §3), 0 when none. */
  discountPercent?: number;
  coupons?: readonly PriceCoupon[];
}

export type PriceAdjustmentSource = "annual" | "company" | "price.discount" | "price.fixed";

/** One step from the list price to the final unit price, in cents taken off one dashboard. */
export interface PriceAdjustment {
  source: PriceAdjustmentSource;
  amountCents: number;
}

export interface Quote {
  currency: "USD";
  dashboards: number;
  interval: BillingInterval;
  /** The tier the count falls in. */
  tier: PriceTier;
  /** One dashboard for one interval before any discount: tier monthly price × interval. */
  listUnitCents: number;
  adjustments: PriceAdjustment[];
  /** Final price of one dashboard for one interval. */
  unitCents: number;
  /** dashboards × unitCents, exactly. */
  totalCents: number;
  /** unitCents in dollars (at most 2 decimals). */
  unitPrice: number;
  /** totalCents in dollars (at most 2 decimals). */
  total: number;
}

/** Percentages are honoured to 0.01% (basis points), so the arithmetic stays on integers. */
function basisPoints(percent: number, code: PricingErrorCode, what: string): number {
  if (!Number.isFinite(percent) || percent < 0 || percent > 100) {
    throw new PricingError(code, `The ${what} must be a percentage between 0 and 100.`);
  }
  return Math.round(percent * 100);
}

/** Takes `bp` basis points off `cents`, rounding the result half up to the cent (integers only). */
function applyPercent(cents: number, bp: number): number {
  return Math.floor((cents * (10_000 - bp) + 5_000) / 10_000);
}

/** Throws a PricingError when the table cannot price every count from 1 up. */
export function validatePriceTable(table: PriceTable): void {
  const { tiers } = table;
  if (tiers.length === 0 || tiers[0].minDashboards !== 1) {
    throw new PricingError("invalid_table", "The price table must have a tier starting at 1 dashboard.");
  }
  tiers.forEach((tier, i) => {
    if (!Number.isSafeInteger(tier.monthlyCents) || tier.monthlyCents < 0) {
      throw new PricingError("invalid_table", "Tier prices must be whole cents, not negative.");
    }
    if (!Number.isSafeInteger(tier.minDashboards) || (i > 0 && tier.minDashboards <= tiers[i - 1].minDashboards)) {
      throw new PricingError("invalid_table", "Tiers must start at ascending whole dashboard counts.");
    }
  });
  basisPoints(table.annualDiscountPercent, "invalid_table", "annual discount");
}

/** The tier `dashboards` falls in: the last whose minimum it reaches. */
export function tierFor(dashboards: number, table: PriceTable = DEFAULT_PRICE_TABLE): PriceTier {
  let found = table.tiers[0];
  for (const tier of table.tiers) if (dashboards >= tier.minDashboards) found = tier;
  return found;
}

/**
 * The price of `dashboards` dashboards for one interval. Discounts apply one after the other, each
 * rounded to the cent: annual (interval 12), the company's discount, then the `price.discount` coupons
 * (compounded into one step), then `price.fixed` coupons, each taking `value` cents off one dashboard's
 * price (never below 0). Percentages before fixed amounts, so the order coupons were stacked in does not
 * change the price. Throws PricingError on an invalid count, interval, percent, coupon or table.
 */
export function quote(input: QuoteInput): Quote {
  const table = input.table ?? DEFAULT_PRICE_TABLE;
  validatePriceTable(table);
  const { dashboards, interval } = input;
  if (!Number.isSafeInteger(dashboards) || dashboards < 1) {
    throw new PricingError("invalid_dashboards", "The dashboards must be a whole number of at least 1.");
  }
  if (interval !== 1 && interval !== 12) {
    throw new PricingError("invalid_interval", "The interval must be 1 or 12 months.");
  }
  const tier = tierFor(dashboards, table);
  const listUnitCents = tier.monthlyCents * interval;
  const percents: Array<{ source: PriceAdjustmentSource; bp: number }> = [];
  if (interval === 12) {
    percents.push({
      source: "annual",
      bp: basisPoints(table.annualDiscountPercent, "invalid_table", "annual discount"),
    });
  }
  percents.push({ source: "company", bp: basisPoints(input.discountPercent ?? 0, "invalid_discount", "discount") });
  // Several percent coupons compound into one step (20% then 10% = 28% off), rounded to 0.01%, so
  // the order they were stacked in cannot move the price by a rounding cent.
  let couponKept = 1;
  let hasPercentCoupon = false;
  const fixed: number[] = [];
  for (const coupon of input.coupons ?? []) {
    if (coupon.type === PRICE_COUPON_TYPES.discount) {
      couponKept *= 1 - basisPoints(coupon.value, "invalid_coupon", "coupon discount") / 10_000;
      hasPercentCoupon = true;
    } else if (coupon.type === PRICE_COUPON_TYPES.fixed) {
      if (!Number.isSafeInteger(coupon.value) || coupon.value < 0) {
        throw new PricingError("invalid_coupon", "A fixed coupon takes off a whole, non-negative number of cents.");
      }
      fixed.push(coupon.value);
    }
  }
  if (hasPercentCoupon) percents.push({ source: "price.discount", bp: 10_000 - Math.round(couponKept * 10_000) });
  const adjustments: PriceAdjustment[] = [];
  let unitCents = listUnitCents;
  for (const { source, bp } of percents) {
    const next = applyPercent(unitCents, bp);
    // A 0% step (no company discount) is not worth a line on the subscription page.
    if (next !== unitCents) adjustments.push({ source, amountCents: unitCents - next });
    unitCents = next;
  }
  for (const cents of fixed) {
    const next = Math.max(0, unitCents - cents);
    if (next !== unitCents) adjustments.push({ source: "price.fixed", amountCents: unitCents - next });
    unitCents = next;
  }
  const totalCents = dashboards * unitCents;
  // Beyond 2^53 cents the "exact to the cent" promise breaks; no real order gets near it.
  if (!Number.isSafeInteger(totalCents)) {
    throw new PricingError("invalid_dashboards", "The dashboards are too many to price.");
  }
  return {
    currency: table.currency,
    dashboards,
    interval,
    tier,
    listUnitCents,
    adjustments,
    unitCents,
    totalCents,
    unitPrice: unitCents / 100,
    total: totalCents / 100,
  };
}
