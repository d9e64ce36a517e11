import { quote } from "@app/core";
import { describe, expect, it } from "vitest";
import { livePrice, splitName } from "./price";

describe("livePrice", () => {
  it("shows core quote's unit price, everything taken off and the total, in dollars with 2 decimals", () => {
    const q = quote({ dashboards: 10, interval: 12, coupons: [{ type: "price.discount", value: 10 }] });
    expect(livePrice({ dashboards: 10, interval: 12, coupons: [{ type: "price.discount", value: 10 }] })).toEqual({
      unit: `$${(q.unitCents / 100).toFixed(2)}`,
      discount: `$${(((q.listUnitCents - q.unitCents) * 10) / 100).toFixed(2)}`,
      total: `$${(q.totalCents / 100).toFixed(2)}`,
      per: "year",
    });
  });

  it("has no discount line without one, and no price for a count no price is given for", () => {
    expect(livePrice({ dashboards: 3, interval: 1 })).toEqual({
      unit: "$15.00",
      discount: null,
      total: "$45.00",
      per: "month",
    });
    expect(livePrice({ dashboards: null, interval: 1 })).toBeNull();
    expect(livePrice({ dashboards: -2, interval: 1 })).toBeNull();
  });
});

describe("splitName", () => {
  it("splits on the first space only (docs/product.md §4)", () => {
    expect(splitName(" Jane van Cooper ")).toEqual({ first_name: "Jane", last_name: "van Cooper" });
    expect(splitName("Cher")).toEqual({ first_name: "Cher", last_name: "" });
  });
});
