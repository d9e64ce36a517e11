import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BillingInterval,
  DEFAULT_PRICE_TABLE,
  type PriceCoupon,
  type PriceTable,
  PricingError,
  type PricingErrorCode,
  type QuoteInput,
  quote,
  tierFor,
} from "./pricing";

/** One tier at `cents`, no annual discount: isolates the rounding of the discounts. */
const flat = (cents: number, annualDiscountPercent = 0): PriceTable => ({
  currency: "USD",
  tiers: [{ minDashboards: 1, monthlyCents: cents }],
  annualDiscountPercent,
});

describe("quote: default table tiers (docs/product.md §9)", () => {
  it.each([
    [1, 1500, 15, 15],
    [9, 1500, 15, 135],
    [10, 1200, 12, 120],
    [24, 1200, 12, 288],
    [25, 1000, 10, 250],
    [49, 1000, 10, 490],
    [50, 800, 8, 400],
    [99, 800, 8, 792],
    [100, 600, 6, 600],
    [1000, 600, 6, 6000],
  ])("%i dashboards monthly: %i cents each, $%d each, $%d in all", (dashboards, cents, unitPrice, total) => {
    expect(quote({ dashboards, interval: 1 })).toMatchObject({
      currency: "USD",
      tier: { monthlyCents: cents },
      listUnitCents: cents,
      unitCents: cents,
      unitPrice,
      total,
      adjustments: [],
    });
  });

  it.each([
    [1, 18000, 14400, 144, 144],
    [25, 12000, 9600, 96, 2400],
    [100, 7200, 5760, 57.6, 5760],
  ])(
    "%i dashboards yearly: list %i cents, 20%% off → %i cents ($%d), $%d in all",
    (dashboards, list, unitCents, unitPrice, total) => {
      expect(quote({ dashboards, interval: 12 })).toMatchObject({
        interval: 12,
        listUnitCents: list,
        unitCents,
        unitPrice,
        total,
        adjustments: [{ source: "annual", amountCents: list - unitCents }],
      });
    },
  );

  it("yearly costs less than twelve monthly payments", () => {
    expect(quote({ dashboards: 25, interval: 12 }).total).toBeLessThan(
      12 * quote({ dashboards: 25, interval: 1 }).total,
    );
  });

  it.each([
    [0, 1500],
    [1, 1500],
    [9, 1500],
    [10, 1200],
    [25, 1000],
    [100, 600],
  ])("tierFor(%i) → %i cents", (dashboards, cents) => {
    expect(tierFor(dashboards).monthlyCents).toBe(cents);
  });
});

describe("quote: discounts and rounding", () => {
  it.each<[string, QuoteInput, number, number]>([
    ["company discount 10%", { dashboards: 25, interval: 1, discountPercent: 10 }, 900, 22500],
    ["annual then company 15%", { dashboards: 25, interval: 12, discountPercent: 15 }, 8160, 204000],
    ["half a cent rounds up", { dashboards: 3, interval: 1, table: flat(999), discountPercent: 50 }, 500, 1500],
    ["half a cent rounds up (odd)", { dashboards: 3, interval: 1, table: flat(333), discountPercent: 50 }, 167, 501],
    ["below half a cent rounds down", { dashboards: 3, interval: 1, table: flat(999), discountPercent: 33 }, 669, 2007],
    ["fractional percent", { dashboards: 2, interval: 1, table: flat(1000), discountPercent: 12.5 }, 875, 1750],
    ["100% company discount", { dashboards: 5, interval: 1, discountPercent: 100 }, 0, 0],
    ["coupon percent", { dashboards: 1, interval: 1, table: flat(1000), coupons: [c("price.discount", 20)] }, 800, 800],
    [
      "percent coupons compound (20% then 10% = 28%)",
      { dashboards: 1, interval: 1, table: flat(1000), coupons: [c("price.discount", 20), c("price.discount", 10)] },
      720,
      720,
    ],
    [
      "compounded coupons round once (33%, 17% → 44.39% of 999)",
      { dashboards: 1, interval: 1, table: flat(999), coupons: [c("price.discount", 33), c("price.discount", 17)] },
      556,
      556,
    ],
    [
      "same coupons in the other order, same price",
      { dashboards: 1, interval: 1, table: flat(999), coupons: [c("price.discount", 17), c("price.discount", 33)] },
      556,
      556,
    ],
    [
      "fixed coupon in cents",
      { dashboards: 4, interval: 1, table: flat(1000), coupons: [c("price.fixed", 250)] },
      750,
      3000,
    ],
    [
      "percent before fixed, whatever the order given",
      { dashboards: 1, interval: 1, table: flat(1000), coupons: [c("price.fixed", 100), c("price.discount", 10)] },
      800,
      800,
    ],
    ["fixed never below 0", { dashboards: 3, interval: 1, table: flat(1000), coupons: [c("price.fixed", 5000)] }, 0, 0],
    [
      "other coupon types do not touch the price",
      { dashboards: 1, interval: 1, table: flat(1000), coupons: [c("dashboards.bonus", 5), c("ltd.appsumo", 10)] },
      1000,
      1000,
    ],
  ])("%s", (_label, input, unitCents, totalCents) => {
    const result = quote(input);
    expect({ unitCents: result.unitCents, totalCents: result.totalCents }).toEqual({ unitCents, totalCents });
    expect(result.unitPrice).toBe(unitCents / 100);
    expect(result.total).toBe(totalCents / 100);
  });

  it("lists every step from the list price, in the order applied", () => {
    const result = quote({
      dashboards: 25,
      interval: 12,
      discountPercent: 10,
      coupons: [c("price.fixed", 100), c("price.discount", 10)],
    });
    expect(result.adjustments).toEqual([
      { source: "annual", amountCents: 2400 },
      { source: "company", amountCents: 960 },
      { source: "price.discount", amountCents: 864 },
      { source: "price.fixed", amountCents: 100 },
    ]);
    expect(result).toMatchObject({ listUnitCents: 12000, unitCents: 7676, unitPrice: 76.76, total: 1919 });
  });

  it("a custom table replaces the default, annual discount included", () => {
    const table: PriceTable = {
      currency: "USD",
      tiers: [
        { minDashboards: 1, monthlyCents: 2000 },
        { minDashboards: 5, monthlyCents: 1000 },
      ],
      annualDiscountPercent: 50,
    };
    expect(quote({ dashboards: 4, interval: 1, table }).unitCents).toBe(2000);
    expect(quote({ dashboards: 5, interval: 12, table }).unitCents).toBe(6000);
  });
});

describe("quote: refused inputs", () => {
  it.each<[string, Partial<QuoteInput> & { coupons?: readonly PriceCoupon[] }, PricingErrorCode]>([
    ["0 dashboards", { dashboards: 0 }, "invalid_dashboards"],
    ["negative dashboards", { dashboards: -3 }, "invalid_dashboards"],
    ["fractional dashboards", { dashboards: 2.5 }, "invalid_dashboards"],
    ["NaN dashboards", { dashboards: Number.NaN }, "invalid_dashboards"],
    ["infinite dashboards", { dashboards: Number.POSITIVE_INFINITY }, "invalid_dashboards"],
    ["a total past 2^53 cents", { dashboards: Number.MAX_SAFE_INTEGER }, "invalid_dashboards"],
    ["a 6-month interval", { interval: 6 as BillingInterval }, "invalid_interval"],
    ["a negative company discount", { discountPercent: -1 }, "invalid_discount"],
    ["a company discount above 100", { discountPercent: 101 }, "invalid_discount"],
    ["a NaN company discount", { discountPercent: Number.NaN }, "invalid_discount"],
    ["a coupon above 100%", { coupons: [c("price.discount", 150)] }, "invalid_coupon"],
    ["a negative percent coupon", { coupons: [c("price.discount", -5)] }, "invalid_coupon"],
    ["a negative fixed coupon", { coupons: [c("price.fixed", -5)] }, "invalid_coupon"],
    ["a fixed coupon in fractions of a cent", { coupons: [c("price.fixed", 2.5)] }, "invalid_coupon"],
    ["no tiers", { table: { ...DEFAULT_PRICE_TABLE, tiers: [] } }, "invalid_table"],
    [
      "first tier not at 1",
      { table: { ...DEFAULT_PRICE_TABLE, tiers: [{ minDashboards: 2, monthlyCents: 1 }] } },
      "invalid_table",
    ],
    [
      "tiers out of order",
      {
        table: {
          ...DEFAULT_PRICE_TABLE,
          tiers: [
            { minDashboards: 1, monthlyCents: 10 },
            { minDashboards: 10, monthlyCents: 9 },
            { minDashboards: 10, monthlyCents: 8 },
          ],
        },
      },
      "invalid_table",
    ],
    ["a negative tier price", { table: flat(-1) }, "invalid_table"],
    ["a tier price in fractions of a cent", { table: flat(10.5) }, "invalid_table"],
    ["an annual discount above 100", { table: flat(1000, 120) }, "invalid_table"],
  ])("%s → %s", (_label, overrides, code) => {
    const call = () => quote({ dashboards: 25, interval: 1, ...overrides });
    expect(call).toThrow(PricingError);
    try {
      call();
    } catch (error) {
      expect((error as PricingError).code).toBe(code);
    }
  });
});

describe("quote: properties", () => {
  const couponArb = fc.oneof(
    fc.record({ type: fc.constant("price.discount"), value: fc.integer({ min: 0, max: 10_000 }).map((v) => v / 100) }),
    fc.record({ type: fc.constant("price.fixed"), value: fc.integer({ min: 0, max: 20_000 }) }),
    fc.record({ type: fc.constant("dashboards.bonus"), value: fc.integer({ min: 0, max: 50 }) }),
  );
  const inputArb = fc.record({
    dashboards: fc.integer({ min: 1, max: 5000 }),
    interval: fc.constantFrom<BillingInterval>(1, 12),
    discountPercent: fc.integer({ min: 0, max: 10_000 }).map((v) => v / 100),
    coupons: fc.array(couponArb, { maxLength: 4 }),
  });

  it("total = dashboards × unit price, exactly to the cent, with at most 2 decimals", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const result = quote(input);
        expect(result.totalCents).toBe(input.dashboards * result.unitCents);
        expect(Math.round(result.total * 100)).toBe(input.dashboards * Math.round(result.unitPrice * 100));
        expect(String(result.total)).toMatch(/^\d+(\.\d{1,2})?$/);
        expect(String(result.unitPrice)).toMatch(/^\d+(\.\d{1,2})?$/);
        expect(result.total.toFixed(2)).toBe((result.totalCents / 100).toFixed(2));
      }),
    );
  });

  it("discounts only ever lower the price, and the steps add up to the list price", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const result = quote(input);
        const taken = result.adjustments.reduce((sum, step) => sum + step.amountCents, 0);
        expect(result.adjustments.every((step) => step.amountCents > 0)).toBe(true);
        expect(result.unitCents).toBe(result.listUnitCents - taken);
        expect(result.unitCents).toBeGreaterThanOrEqual(0);
        expect(quote({ ...input, discountPercent: 0, coupons: [] }).unitCents).toBeGreaterThanOrEqual(result.unitCents);
      }),
    );
  });

  it("the order coupons are given in does not change the price", () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const reversed = quote({ ...input, coupons: [...input.coupons].reverse() });
        expect(reversed.unitCents).toBe(quote(input).unitCents);
      }),
    );
  });
});

function c(type: string, value: number): PriceCoupon {
  return { type, value };
}
