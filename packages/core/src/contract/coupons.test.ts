import { describe, expect, it } from "vitest";
import { ZCouponApply, ZCouponDefinition } from "./coupons";

/** The operator's definitions (CLI, import file): what is accepted and the plain words of each refusal. */
describe("ZCouponDefinition", () => {
  const base = { code: "SPRING20", type: "price.discount", value: 20 };
  it.each([
    ["a percent discount", base, null],
    ["value as typed on a command line", { ...base, value: "20" }, null],
    ["all options", { ...base, name: "Spring", max: "5", expires: "2027-03-01" }, null],
    ["a lifetime deal", { code: "SUMO_1", type: "ltd.appsumo", value: 10 }, null],
    [
      "an unknown type",
      { ...base, type: "free" },
      "The type must be one of price.discount, price.fixed, dashboards.bonus, ltd.appsumo.",
    ],
    ["a percent above 100", { ...base, value: 101 }, "A percent discount is at most 100."],
    [
      "cents with a fraction",
      { ...base, type: "price.fixed", value: 1.5 },
      "A fixed discount is a whole number of cents.",
    ],
    ["half a dashboard", { ...base, type: "dashboards.bonus", value: 0.5 }, "A number of dashboards is whole."],
    ["a negative value", { ...base, value: -1 }, "The value must be a number above 0."],
    ["a space in the code", { ...base, code: "SPRING 20" }, "A code uses only letters, digits, - and _."],
    ["a code too long", { ...base, code: "A".repeat(65) }, "A code is at most 64 characters."],
    ["no code", { ...base, code: "" }, "Enter a code."],
    ["a date that does not exist", { ...base, expires: "2027-02-29" }, "The expiry must be a real date."],
    ["a date in another format", { ...base, expires: "1.3.2027" }, "The expiry must be a date written YYYY-MM-DD."],
    ["a maximum of 0", { ...base, max: 0 }, "The maximum must be a whole number of at least 1."],
  ])("%s", (_label, input, message) => {
    const parsed = ZCouponDefinition.safeParse(input);
    if (message === null) expect(parsed.success).toBe(true);
    else expect(parsed.error?.issues.map((issue) => issue.message)).toContain(message);
  });
});

describe("ZCouponApply", () => {
  it("trims the code and refuses an empty one", () => {
    expect(ZCouponApply.parse({ coupon: "  spring " })).toEqual({ coupon: "spring" });
    expect(ZCouponApply.safeParse({ coupon: " " }).error?.issues[0].message).toBe("Enter a code.");
  });
});
