import { describe, expect, it } from "vitest";
import {
  type AppliedCoupon,
  COUPON_NOT_STACKABLE_MESSAGE,
  COUPON_NOT_VALID_MESSAGE,
  COUPON_TEXTS,
  COUPON_TYPES,
  type Coupon,
  type CouponRules,
  type CouponType,
  canApplyCoupon,
  couponActivatedMessage,
  couponEffects,
  couponInvalidMessage,
  couponKey,
  couponRefusalMessage,
  couponRefusalText,
  couponSummary,
  couponValueProblem,
  DEFAULT_COUPON_RULES,
  dashboardsUsedText,
  discountedUnitCents,
  isCouponInList,
  MAX_PER_TYPE,
  STACKING,
} from "./coupons";

const NOW = new Date("2026-06-15T12:00:00Z");

function coupon(code: string, type: CouponType, extra: Partial<Coupon> = {}): Coupon {
  return { code, type, value: 10, name: code, ...extra };
}
const applied = (...items: Array<[string, CouponType]>): AppliedCoupon[] =>
  items.map(([code, type]) => ({ code, type }));

describe("canApplyCoupon: same code twice (docs/product.md §5, any case)", () => {
  it.each([
    ["exact code", [["SPRING", "price.discount"]], "SPRING", "already_applied"],
    ["lower case", [["SPRING", "price.discount"]], "spring", "already_applied"],
    ["mixed case with spaces", [["spring", "price.discount"]], "  SpRiNg ", "already_applied"],
    [
      "an earlier, not the last, coupon",
      [
        ["A", "dashboards.bonus"],
        ["B", "price.fixed"],
      ],
      "a",
      "already_applied",
    ],
    ["a different code", [["SPRING", "price.discount"]], "SUMMER", "not_stackable"],
    ["nothing applied", [], "SPRING", null],
  ] as const)("%s", (_label, before, code, reason) => {
    const list = applied(...before.map(([c, t]) => [c, t] as [string, CouponType]));
    const result = canApplyCoupon(list, coupon(code, "price.discount"), NOW);
    expect(result).toEqual(reason === null ? { ok: true } : { ok: false, reason });
  });
});

describe("canApplyCoupon: stacking follows the last coupon's type (docs/product.md §5)", () => {
  const D = "price.discount";
  const F = "price.fixed";
  const B = "dashboards.bonus";
  const L = "ltd.appsumo";
  it.each([
    // [applied types, oldest first], new type, ok?
    [[], D, true],
    [[], F, true],
    [[], B, true],
    [[], L, true],
    [[D], F, true],
    [[D], B, true],
    [[D], D, false], // not listed after itself (and max 1)
    [[D], L, false],
    [[F], D, true],
    [[F], B, true],
    [[F], F, false],
    [[F], L, false],
    [[B], D, true],
    [[B], F, true],
    [[B], B, true],
    [[B], L, false],
    [[L], L, true],
    [[L], D, false],
    [[L], F, false],
    [[L], B, false],
    // Only the LAST coupon's type decides: bonus after a discount lets a fixed discount follow.
    [[D, B], F, true],
    [[B, D], F, true],
    [[B, D], B, true],
    // …and the per-type maximum still holds over the whole list.
    [[D, B], D, false],
    [[F, B], F, false],
    [[B, B], B, true],
    [[B, B, B], B, false],
    [[B, D, B, B], B, false],
    [[L, L], L, true],
    [[L, L, L], L, false],
  ] as const)("%j then %s → %s", (types, next, ok) => {
    const list = types.map((type, index) => ({ code: `C${index}`, type }));
    const result = canApplyCoupon(list, coupon("NEW", next), NOW);
    expect(result).toEqual(ok ? { ok: true } : { ok: false, reason: "not_stackable" });
  });
});

describe("canApplyCoupon: expiry and redemptions (explicit now and count)", () => {
  it.each([
    ["no expiry", {}, { ok: true }],
    ["null expiry", { expiresAt: null }, { ok: true }],
    ["expires in a second (Date)", { expiresAt: new Date("2026-06-15T12:00:01Z") }, { ok: true }],
    ["expires in a second (ISO string)", { expiresAt: "2026-06-15T12:00:01Z" }, { ok: true }],
    ["expires exactly now", { expiresAt: new Date(NOW) }, { ok: false, reason: "expired" }],
    ["expired yesterday (ISO string)", { expiresAt: "2026-06-14T12:00:00Z" }, { ok: false, reason: "expired" }],
    ["unreadable date fails closed", { expiresAt: "not a date" }, { ok: false, reason: "expired" }],
    ["no limit", { redemptions: 1000 }, { ok: true }],
    ["null limit", { maxRedemptions: null, redemptions: 5 }, { ok: true }],
    ["below the limit", { maxRedemptions: 10, redemptions: 9 }, { ok: true }],
    ["limit reached", { maxRedemptions: 10, redemptions: 10 }, { ok: false, reason: "used_up" }],
    ["count absent = 0", { maxRedemptions: 1 }, { ok: true }],
    ["limit 0 switches the code off", { maxRedemptions: 0 }, { ok: false, reason: "used_up" }],
    [
      "expired wins over used up",
      { expiresAt: "2026-01-01T00:00:00Z", maxRedemptions: 1, redemptions: 1 },
      { ok: false, reason: "expired" },
    ],
  ] as const)("%s", (_label, extra, expected) => {
    expect(canApplyCoupon([], coupon("X", "price.discount", extra), NOW)).toEqual(expected);
  });

  it.each([
    // The order of checks: already applied, expired, used up, then stacking.
    [
      "already applied beats used up (its own redemption used it up)",
      applied(["X", "price.discount"]),
      { maxRedemptions: 1, redemptions: 1 },
      "already_applied",
    ],
    [
      "already applied beats expired",
      applied(["x", "price.discount"]),
      { expiresAt: "2020-01-01T00:00:00Z" },
      "already_applied",
    ],
    ["expired beats not stackable", applied(["L", "ltd.appsumo"]), { expiresAt: "2020-01-01T00:00:00Z" }, "expired"],
    ["used up beats not stackable", applied(["L", "ltd.appsumo"]), { maxRedemptions: 0 }, "used_up"],
  ] as const)("%s", (_label, list, extra, reason) => {
    expect(canApplyCoupon(list, coupon("X", "price.discount", extra), NOW)).toEqual({ ok: false, reason });
  });
});

describe("canApplyCoupon: rules are configurable", () => {
  const lenient: CouponRules = {
    stacking: { ...STACKING, "ltd.appsumo": ["ltd.appsumo", "dashboards.bonus"] },
    maxPerType: { ...MAX_PER_TYPE, "price.discount": 0 },
  };
  it.each([
    ["bonus after a lifetime deal when the table allows it", applied(["L", "ltd.appsumo"]), "dashboards.bonus", true],
    ["a type whose maximum is 0 is never accepted, even first", [], "price.discount", false],
  ] as const)("%s", (_label, list, type, ok) => {
    expect(canApplyCoupon(list, coupon("NEW", type), NOW, lenient).ok).toBe(ok);
    // The default rules are untouched by the custom table.
    expect(DEFAULT_COUPON_RULES.stacking["ltd.appsumo"]).toEqual(["ltd.appsumo"]);
  });
});

describe("canApplyCoupon: only the LAST coupon's type is asked, not the first", () => {
  // A table where first and last disagree, with maxima high enough that only stacking decides.
  const rules: CouponRules = {
    stacking: {
      "price.discount": ["dashboards.bonus"],
      "price.fixed": [],
      "dashboards.bonus": ["price.discount", "dashboards.bonus"],
      "ltd.appsumo": [],
    },
    maxPerType: { "price.discount": 5, "price.fixed": 5, "dashboards.bonus": 5, "ltd.appsumo": 5 },
  };
  it.each([
    ["discount, bonus, then discount: the bonus allows it", ["price.discount", "dashboards.bonus"], true],
    ["bonus, discount, then discount: the discount refuses it", ["dashboards.bonus", "price.discount"], false],
  ] as const)("%s", (_label, types, ok) => {
    const list = types.map((type, index) => ({ code: `C${index}`, type }));
    expect(canApplyCoupon(list, coupon("NEW", "price.discount"), NOW, rules)).toEqual(
      ok ? { ok: true } : { ok: false, reason: "not_stackable" },
    );
  });
});

describe("STACKING and MAX_PER_TYPE", () => {
  it("covers every type and allows a type after itself exactly when its maximum is above 1", () => {
    for (const type of COUPON_TYPES) {
      expect(MAX_PER_TYPE[type]).toBeGreaterThanOrEqual(1);
      expect(STACKING[type].includes(type)).toBe(MAX_PER_TYPE[type] > 1);
    }
  });
  it("never lets a lifetime deal and a recurring price coupon meet", () => {
    for (const type of COUPON_TYPES) {
      if (type === "ltd.appsumo") continue;
      expect(STACKING[type]).not.toContain("ltd.appsumo");
    }
    expect(STACKING["ltd.appsumo"]).toEqual(["ltd.appsumo"]);
  });
});

describe("couponKey / isCouponInList (the server's applied list decides)", () => {
  it.each([
    ["SPRING", "spring"],
    ["  Spring20 ", "spring20"],
    ["", ""],
  ])("couponKey(%j) = %j", (code, key) => {
    expect(couponKey(code)).toBe(key);
  });
  it.each([
    [["SPRING", "BONUS"], "spring", true],
    [["SPRING", "BONUS"], " Bonus ", true],
    [["SPRING"], "SPRINGX", false],
    [[], "SPRING", false],
  ] as const)("%j contains %j → %s", (codes, code, expected) => {
    expect(isCouponInList(codes, code)).toBe(expected);
  });
});

describe("couponValueProblem (operator input)", () => {
  it.each([
    ["price.discount", 20, null],
    ["price.discount", 12.5, null],
    ["price.discount", 100, null],
    ["price.discount", 101, "A percent discount is at most 100."],
    ["price.discount", 0, "The value must be a number above 0."],
    ["price.fixed", 500, null],
    ["price.fixed", 4.5, "A fixed discount is a whole number of cents."],
    ["price.fixed", -1, "The value must be a number above 0."],
    ["dashboards.bonus", 5, null],
    ["dashboards.bonus", 1.5, "A number of dashboards is whole."],
    ["ltd.appsumo", 10, null],
    ["ltd.appsumo", Number.NaN, "The value must be a number above 0."],
    ["ltd.appsumo", Number.POSITIVE_INFINITY, "The value must be a number above 0."],
  ] as const)("%s %d → %s", (type, value, expected) => {
    expect(couponValueProblem(type, value)).toBe(expected);
  });
});

describe("couponEffects", () => {
  const none = { discountPercent: 0, fixedOffCents: 0, bonusDashboards: 0, lifetime: null, forcedFlow: null };
  it.each([
    ["nothing applied", [], none],
    ["one percent discount", [{ type: "price.discount", value: 20 }], { ...none, discountPercent: 20 }],
    [
      "percent discounts compound (20% then 10% = 28%)",
      [
        { type: "price.discount", value: 20 },
        { type: "price.discount", value: 10 },
      ],
      { ...none, discountPercent: 28 },
    ],
    [
      "compounding rounds to basis points",
      [
        { type: "price.discount", value: 33.333 },
        { type: "price.discount", value: 10 },
      ],
      { ...none, discountPercent: 40 },
    ],
    [
      "never more than 100%",
      [
        { type: "price.discount", value: 150 },
        { type: "price.discount", value: 10 },
      ],
      { ...none, discountPercent: 100 },
    ],
    [
      "fixed discounts add up",
      [
        { type: "price.fixed", value: 300 },
        { type: "price.fixed", value: 200 },
      ],
      { ...none, fixedOffCents: 500 },
    ],
    [
      "bonus dashboards add up",
      [
        { type: "dashboards.bonus", value: 5 },
        { type: "dashboards.bonus", value: 3 },
      ],
      { ...none, bonusDashboards: 8 },
    ],
    [
      "a lifetime deal forces the dashboard flow",
      [{ type: "ltd.appsumo", value: 10 }],
      { ...none, lifetime: { dashboards: 10 }, forcedFlow: "dashboard" },
    ],
    [
      "stacked lifetime codes add their dashboards",
      [
        { type: "ltd.appsumo", value: 10 },
        { type: "ltd.appsumo", value: 15 },
      ],
      { ...none, lifetime: { dashboards: 25 }, forcedFlow: "dashboard" },
    ],
    [
      "a mixed stack",
      [
        { type: "price.discount", value: 15 },
        { type: "dashboards.bonus", value: 2 },
        { type: "price.fixed", value: 99 },
      ],
      { ...none, discountPercent: 15, fixedOffCents: 99, bonusDashboards: 2 },
    ],
    [
      "bad values count as 0 and never raise a price",
      [
        { type: "price.discount", value: -20 },
        { type: "price.fixed", value: Number.NaN },
        { type: "dashboards.bonus", value: -3 },
      ],
      none,
    ],
  ] as const)("%s", (_label, list, expected) => {
    expect(couponEffects(list)).toEqual(expected);
  });
});

describe("discountedUnitCents: percent first, then fixed, never below 0", () => {
  it.each([
    ["no coupons", 1999, 0, 0, 1999],
    ["20% off", 1000, 20, 0, 800],
    ["percent rounds to the cent", 1999, 15, 0, 1699], // 1699.15
    ["half a cent rounds up", 1001, 50, 0, 501], // 500.5
    ["fixed off", 1000, 0, 250, 750],
    ["percent then fixed (not fixed then percent = 600)", 1000, 20, 250, 550],
    ["fixed larger than the price", 1000, 0, 5000, 0],
    ["100% off", 1999, 100, 0, 0],
  ])("%s", (_label, unit, discountPercent, fixedOffCents, expected) => {
    expect(discountedUnitCents(unit, { discountPercent, fixedOffCents })).toBe(expected);
  });
});

describe("coupon messages (docs/product.md §8, exact texts)", () => {
  it.each([
    [
      "invalid",
      couponInvalidMessage("SPRING20"),
      { code: 500, type: "error", title: null, body: "Code / Coupon SPRING20 is invalid", closeable: true },
    ],
    [
      "activated",
      couponActivatedMessage("SPRING20"),
      {
        code: 200,
        type: "success",
        title: null,
        body: "Code / Coupon SPRING20 activated successfully",
        closeable: true,
      },
    ],
    [
      "look-up failure",
      COUPON_NOT_VALID_MESSAGE,
      { code: 500, type: "error", title: null, body: "Code / Coupon not valid", closeable: true },
    ],
    [
      "not stackable",
      COUPON_NOT_STACKABLE_MESSAGE,
      {
        code: 500,
        type: "error",
        title: null,
        body: "Code / Coupon not stackable with other code(s) / coupon(s)",
        closeable: true,
      },
    ],
    [
      "a code is shown, never interpreted as HTML",
      couponInvalidMessage(`<img src=x onerror="alert('1')">&`),
      {
        code: 500,
        type: "error",
        title: null,
        body: "Code / Coupon &lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp; is invalid",
        closeable: true,
      },
    ],
  ] as const)("%s", (_label, message, expected) => {
    expect(message).toEqual(expected);
  });

  it.each([
    ["not_stackable", "Code / Coupon not stackable with other code(s) / coupon(s)"],
    ["expired", "Code / Coupon OLD is invalid"],
    ["used_up", "Code / Coupon OLD is invalid"],
    ["already_applied", "Code / Coupon OLD is invalid"],
  ] as const)("refusal %s → %j", (reason, body) => {
    expect(couponRefusalMessage(reason, "OLD")).toMatchObject({ body, code: 500, type: "error" });
  });
});

describe("COUPON_TEXTS: the same words as plain text (API messages, field errors)", () => {
  it.each([
    ["invalid", COUPON_TEXTS.invalid("<b>X</b>"), "Code / Coupon <b>X</b> is invalid"],
    ["activated", COUPON_TEXTS.activated("SPRING20"), "Code / Coupon SPRING20 activated successfully"],
    ["look-up failure", COUPON_TEXTS.notValid, COUPON_NOT_VALID_MESSAGE.body],
    ["not stackable", COUPON_TEXTS.notStackable, COUPON_NOT_STACKABLE_MESSAGE.body],
    ["refusal not_stackable", couponRefusalText("not_stackable", "A"), COUPON_NOT_STACKABLE_MESSAGE.body],
    ["refusal expired", couponRefusalText("expired", "A"), "Code / Coupon A is invalid"],
    ["refusal used_up", couponRefusalText("used_up", "A"), "Code / Coupon A is invalid"],
    ["refusal already_applied", couponRefusalText("already_applied", "A"), "Code / Coupon A is invalid"],
  ])("%s", (_label, text, expected) => {
    expect(text).toBe(expected);
  });
});

describe("couponSummary / dashboardsUsedText (what the pages show)", () => {
  it.each([
    [{ type: "price.discount", value: 20 }, "20% off"],
    [{ type: "price.discount", value: 12.5 }, "12.5% off"],
    [{ type: "price.fixed", value: 250 }, "$2.50 off each dashboard"],
    [{ type: "price.fixed", value: 1000 }, "$10.00 off each dashboard"],
    [{ type: "dashboards.bonus", value: 1 }, "+1 bonus dashboard"],
    [{ type: "dashboards.bonus", value: 3 }, "+3 bonus dashboards"],
    [{ type: "ltd.appsumo", value: 10 }, "10 dashboards for life"],
  ] as const)("%j → %s", (coupon, text) => {
    expect(couponSummary(coupon)).toBe(text);
  });

  it.each([
    [3, { dashboards: 25, bonusDashboards: 0 }, "3 of 25 used"],
    [3, { dashboards: 25, bonusDashboards: 2 }, "3 of 25 used (+ 2 bonus)"],
    [27, { dashboards: 25, bonusDashboards: 2 }, "27 of 25 used (+ 2 bonus)"],
  ])("%i used of %j → %s", (count, services, text) => {
    expect(dashboardsUsedText(count, services)).toBe(text);
  });
});
