import { quote } from "@app/core";
import { describe, expect, it } from "vitest";
import { breakdownOf, linesOfBreakdown, linesOfStripeInvoice, parseBreakdown, sumOf } from "./order-lines";
import type { Stripe } from "./stripe-client";

describe("order lines from the server's price", () => {
  const cases = [
    { name: "monthly list price: one line", dashboards: 5, interval: 1 as const, percent: 0, coupons: [] },
    {
      name: "yearly, company discount, two percent coupons compounded, a fixed coupon",
      dashboards: 12,
      interval: 12 as const,
      percent: 7.5,
      coupons: [
        { code: "TEN", type: "price.discount", value: 10 },
        { code: "FIVE", type: "price.discount", value: 5 },
        { code: "OFF300", type: "price.fixed", value: 300 },
      ],
    },
    {
      name: "a fixed coupon larger than the price stops at 0",
      dashboards: 3,
      interval: 1 as const,
      percent: 0,
      coupons: [{ code: "ALL", type: "price.fixed", value: 1_000_000 }],
    },
  ];
  it.each(cases)("$name: named steps adding up to the quote's total, through Stripe's metadata", (c) => {
    const q = quote({ dashboards: c.dashboards, interval: c.interval, discountPercent: c.percent, coupons: c.coupons });
    const breakdown = breakdownOf(q, c.coupons, c.percent);
    const text = JSON.stringify(breakdown);
    expect(text.length).toBeLessThan(500);
    const lines = linesOfBreakdown(parseBreakdown(text) ?? breakdown, c.dashboards, c.interval, q.totalCents);
    expect(lines).not.toBeNull();
    expect(sumOf(lines ?? [])).toBe(q.totalCents);
    expect(lines?.length).toBe(1 + q.adjustments.length);
    for (const line of lines?.slice(1) ?? []) expect(line.amountCents).toBeLessThan(0);
    if (c.coupons.length > 1) {
      expect(lines?.map((l) => l.description)).toEqual([
        "Dashboards, yearly plan",
        "Annual plan discount (20%)",
        "Company discount (7.5%)",
        "Coupons TEN 10%, FIVE 5%",
        "Coupon OFF300",
      ]);
    }
  });

  it("a breakdown of another price than the one charged gives no lines (the caller uses Stripe's)", () => {
    const q = quote({ dashboards: 5, interval: 1 });
    expect(linesOfBreakdown(breakdownOf(q, [], 0), 5, 1, q.totalCents + 1)).toBeNull();
  });

  it.each([undefined, "", "not json", '{"l":"x","a":[]}', '{"l":100,"a":[["bogus",1,""]]}'])(
    "metadata %j is no breakdown",
    (text) => {
      expect(parseBreakdown(text)).toBeNull();
    },
  );
});

describe("order lines from a Stripe invoice", () => {
  const invoice = (lines: Array<{ amount: number; quantity: number | null; description: string | null }>) =>
    ({ lines: { data: lines } }) as unknown as Stripe.Invoice;
  it.each([
    [
      "as itemised",
      [
        { amount: -500, quantity: 5, description: "Unused" },
        { amount: 900, quantity: 8, description: "Remaining" },
      ],
      400,
      [-500, 900],
    ],
    [
      "Stripe's own discount becomes a line",
      [{ amount: 1000, quantity: 2, description: "2 × Dashboards" }],
      800,
      [1000, -200],
    ],
    ["no description or quantity", [{ amount: 700, quantity: null, description: null }], 700, [700]],
  ])("%s", (_name, lines, total, amounts) => {
    const result = linesOfStripeInvoice(invoice(lines), total);
    expect(result.map((l) => l.amountCents)).toEqual(amounts);
    expect(sumOf(result)).toBe(total);
    expect(result.every((l) => l.description.length > 0)).toBe(true);
  });
});
