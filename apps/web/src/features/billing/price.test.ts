import { quote } from "@app/core";
import { describe, expect, it } from "vitest";
import { livePrice, splitName } from "./price";

describe("livePrice", () => {
  it("shows core quote's unit price, everything taken off and the total, in dollars with 2 decimals", () => {
    const q = quote({ dashboards: 10, interval: 12, coupons: [{ type: "price.discount", value: 10 }] });
    // $12 a month at 10 dashboards → $144.00 a year listed; −20 % yearly → $115.20; −10 % coupon → $103.68.
    expect(q.unitCents).toBe(10_368);
    expect(livePrice({ dashboards: 10, interval: 12, coupons: [{ type: "price.discount", value: 10 }] })).toEqual({
      listLabel: "10 dashboards × $144.00",
      list: "$1,440.00",
      discount: "$403.20",
      total: "$1,036.80",
      unit: "$103.68",
      per: "year",
    });
  });

  it("has no discount line without one, and no price for a count no price is given for", () => {
    expect(livePrice({ dashboards: 3, interval: 1 })).toEqual({
      listLabel: "3 dashboards × $15.00",
      list: "$45.00",
      discount: null,
      total: "$45.00",
      unit: "$15.00",
      per: "month",
    });
    expect(livePrice({ dashboards: 1, interval: 1 })?.listLabel).toBe("1 dashboard × $15.00");
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
