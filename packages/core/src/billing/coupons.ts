import type { GlobalMessage } from "./messages";

/**
 * Coupon rules shared by the server (which decides, docs/product.md §5: "the server's list of applied
 * codes decides") and the web (which disables what cannot apply and shows the messages of §8).
 * Everything here is pure: the clock (`now`) and the redemption count come from the caller.
 */

/** The coupon kinds the product sells with. Strings match the look-up response's `type` (docs/product.md §7). */
export const COUPON_TYPES = ["price.discount", "price.fixed", "dashboards.bonus", "ltd.appsumo"] as const;
export type CouponType = (typeof COUPON_TYPES)[number];

export interface Coupon {
  /** What the user types; compared without regard to case or surrounding spaces. */
  code: string;
  type: CouponType;
  /**
   * price.discount: percent off (0 < v ≤ 100); price.fixed: cents off each dashboard's price;
   * dashboards.bonus: dashboards added to services.bonusDashboards; ltd.appsumo: dashboards owned for life.
   */
  value: number;
  name: string;
  /** The instant the code stops working; null/absent = never. Strings are ISO timestamps (SQLite rows). */
  expiresAt?: Date | string | null;
  /** How many times the code may be redeemed across all companies; null/absent = no limit. */
  maxRedemptions?: number | null;
  /** How many times it has been redeemed so far (the server counts; absent = 0). */
  redemptions?: number;
}

/** What canApplyCoupon needs of an applied coupon, in the order they were applied. */
export type AppliedCoupon = Pick<Coupon, "code" | "type">;

export interface CouponRules {
  /** For each type: the types that may be applied right after it (docs/product.md §5, "last coupon's type"). */
  stacking: Readonly<Record<CouponType, readonly CouponType[]>>;
  /** At most this many coupons of each type on one company (0 switches a type off). */
  maxPerType: Readonly<Record<CouponType, number>>;
}

/**
 * Which types may follow each type. The spec leaves the values out (docs/product.md §5); the choice:
 * - price coupons and bonus dashboards combine freely (one percent, one fixed, a few bonuses), because
 *   an agency expects a promo discount and a bonus-dashboards code to work together;
 * - a lifetime deal replaces the recurring subscription, so it may only be the first code or follow
 *   another lifetime code (AppSumo buyers stack codes to own more dashboards), and nothing but another
 *   lifetime code may follow it. As no other type lists ltd.appsumo, a lifetime chain never mixes with a
 *   recurring-price chain even though only the last coupon is checked.
 */
export const STACKING: Readonly<Record<CouponType, readonly CouponType[]>> = {
  "price.discount": ["price.fixed", "dashboards.bonus"],
  "price.fixed": ["price.discount", "dashboards.bonus"],
  "dashboards.bonus": ["price.discount", "price.fixed", "dashboards.bonus"],
  "ltd.appsumo": ["ltd.appsumo"],
};

/**
 * Per-type maximum (docs/product.md §5, values not given). One percent and one fixed discount keep the
 * price predictable; 3 bonus codes and 3 AppSumo codes match the usual "stack up to 3 codes" deals.
 */
export const MAX_PER_TYPE: Readonly<Record<CouponType, number>> = {
  "price.discount": 1,
  "price.fixed": 1,
  "dashboards.bonus": 3,
  "ltd.appsumo": 3,
};

export const DEFAULT_COUPON_RULES: CouponRules = { stacking: STACKING, maxPerType: MAX_PER_TYPE };

export type CouponRefusal = "already_applied" | "not_stackable" | "expired" | "used_up";
export type CanApplyCouponResult = { ok: true } | { ok: false; reason: CouponRefusal };

/** The key two codes are compared by (docs/product.md §5: "the same code (any case)"); also the storage key. */
export function couponKey(code: string): string {
  return code.trim().toLowerCase();
}

/** Whether the server's `applied` list holds the code, in any case (docs/product.md §5: the server decides). */
export function isCouponInList(codes: readonly string[], code: string): boolean {
  const key = couponKey(code);
  return codes.some((applied) => couponKey(applied) === key);
}

/** A coupon is expired from its `expiresAt` instant on. An unreadable date counts as expired (fail closed). */
export function isCouponExpired(coupon: Pick<Coupon, "expiresAt">, now: Date): boolean {
  if (coupon.expiresAt === null || coupon.expiresAt === undefined) return false;
  const expiresAt = coupon.expiresAt instanceof Date ? coupon.expiresAt : new Date(coupon.expiresAt);
  const time = expiresAt.getTime();
  return Number.isNaN(time) || now.getTime() >= time;
}

export function isCouponUsedUp(coupon: Pick<Coupon, "maxRedemptions" | "redemptions">): boolean {
  if (coupon.maxRedemptions === null || coupon.maxRedemptions === undefined) return false;
  return (coupon.redemptions ?? 0) >= coupon.maxRedemptions;
}

/**
 * Whether `coupon` may be added after `applied` (oldest first). The checks run from the most specific
 * to the most general: a code the company already has is "already_applied" even when that redemption
 * used up the code; an expired or used-up code is refused before stacking, since no order would help.
 */
export function canApplyCoupon(
  applied: readonly AppliedCoupon[],
  coupon: Coupon,
  now: Date,
  rules: CouponRules = DEFAULT_COUPON_RULES,
): CanApplyCouponResult {
  const appliedCodes = applied.map((item) => item.code);
  if (isCouponInList(appliedCodes, coupon.code)) return { ok: false, reason: "already_applied" };
  if (isCouponExpired(coupon, now)) return { ok: false, reason: "expired" };
  if (isCouponUsedUp(coupon)) return { ok: false, reason: "used_up" };
  const last = applied.at(-1);
  if (last && !rules.stacking[last.type].includes(coupon.type)) return { ok: false, reason: "not_stackable" };
  const sameType = applied.filter((item) => item.type === coupon.type).length;
  if (sameType + 1 > rules.maxPerType[coupon.type]) return { ok: false, reason: "not_stackable" };
  return { ok: true };
}

/** Why a coupon definition cannot be saved (operator CLI / seed file), or null when it is sound. */
export function couponValueProblem(type: CouponType, value: number): string | null {
  if (!Number.isFinite(value) || value <= 0) return "The value must be a number above 0.";
  if (type === "price.discount") return value > 100 ? "A percent discount is at most 100." : null;
  if (!Number.isInteger(value)) {
    return type === "price.fixed" ? "A fixed discount is a whole number of cents." : "A number of dashboards is whole.";
  }
  return null;
}

export interface CouponEffects {
  /** Percent off the price per dashboard, 0–100, 2 decimals. */
  discountPercent: number;
  /** Cents off the price per dashboard, taken after the percent discount. */
  fixedOffCents: number;
  /** Added to services.bonusDashboards. */
  bonusDashboards: number;
  /** A lifetime deal: these dashboards are owned with no recurring charge. */
  lifetime: { dashboards: number } | null;
  /** The onboarding flow the coupons force (docs/product.md §2: the AppSumo flow uses the dashboard flow). */
  forcedFlow: "dashboard" | null;
}

/**
 * What applied coupons do, combined. Percent discounts compound (20% then 10% = 28%, never more than
 * 100%) so no stack of codes makes a plan free by accident; fixed discounts, bonus dashboards and
 * lifetime dashboards add up. Negative or non-finite values (never saved, see couponValueProblem) count
 * as 0 so a bad row cannot raise a price.
 */
export function couponEffects(applied: readonly Pick<Coupon, "type" | "value">[]): CouponEffects {
  let keptShare = 1;
  let fixedOffCents = 0;
  let bonusDashboards = 0;
  let lifetimeDashboards = 0;
  let hasLifetime = false;
  for (const coupon of applied) {
    const value = Number.isFinite(coupon.value) ? Math.max(0, coupon.value) : 0;
    if (coupon.type === "price.discount") keptShare *= 1 - Math.min(100, value) / 100;
    else if (coupon.type === "price.fixed") fixedOffCents += Math.round(value);
    else if (coupon.type === "dashboards.bonus") bonusDashboards += Math.floor(value);
    else {
      hasLifetime = true;
      lifetimeDashboards += Math.floor(value);
    }
  }
  return {
    // Rounded to basis points: 1 - 0.8 × 0.9 is 0.28000000000000003 in floating point.
    discountPercent: Math.round((1 - keptShare) * 10000) / 100,
    fixedOffCents,
    bonusDashboards,
    lifetime: hasLifetime ? { dashboards: lifetimeDashboards } : null,
    forcedFlow: hasLifetime ? "dashboard" : null,
  };
}

/**
 * The price of one dashboard after the coupons, in cents: the percent first (rounded to the cent), then
 * the fixed amount, never below 0. Percent first is the order the customer gains most from (the fixed
 * amount is not shrunk by the percent). A lifetime deal is the caller's concern (no charge for the
 * lifetime dashboards), not a price change.
 */
export function discountedUnitCents(
  unitCents: number,
  effects: Pick<CouponEffects, "discountPercent" | "fixedOffCents">,
): number {
  const afterPercent = Math.round((unitCents * (100 - effects.discountPercent)) / 100);
  return Math.max(0, afterPercent - effects.fixedOffCents);
}

// Messages of docs/product.md §8. The spec gives codes only for "invalid" (500) and "activated" (200);
// the look-up failure and "not stackable" are errors of the same family, so they use 500 as well.

/** Codes come from URLs and inputs, and message bodies are HTML: the code is shown, never interpreted. */
function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/**
 * The same texts as plain words (the code as typed, unescaped), for places that show text rather than
 * HTML: an API answer's `message` and a field error, which the web renders as text.
 */
export const COUPON_TEXTS = {
  invalid: (code: string) => `Code / Coupon ${code} is invalid`,
  activated: (code: string) => `Code / Coupon ${code} activated successfully`,
  notValid: "Code / Coupon not valid",
  notStackable: "Code / Coupon not stackable with other code(s) / coupon(s)",
} as const;

/** The plain text of a refusal of canApplyCoupon (see couponRefusalMessage for the banner). */
export function couponRefusalText(reason: CouponRefusal, code: string): string {
  return reason === "not_stackable" ? COUPON_TEXTS.notStackable : COUPON_TEXTS.invalid(code);
}

function couponMessage(code: number, type: "error" | "success", body: string): GlobalMessage {
  return { code, type, title: null, body, closeable: true };
}

/** docs/product.md §8: the code is not in the server's applied list. */
export function couponInvalidMessage(code: string): GlobalMessage {
  return couponMessage(500, "error", COUPON_TEXTS.invalid(escapeHtml(code)));
}

/** docs/product.md §8: the code was applied (the company data reloads alongside). */
export function couponActivatedMessage(code: string): GlobalMessage {
  return couponMessage(200, "success", COUPON_TEXTS.activated(escapeHtml(code)));
}

/** docs/product.md §8: the look-up (`GET /api/coupons/{code}`) failed. */
export const COUPON_NOT_VALID_MESSAGE: GlobalMessage = couponMessage(500, "error", COUPON_TEXTS.notValid);

/** docs/product.md §8: the stacking rules refuse the code. */
export const COUPON_NOT_STACKABLE_MESSAGE: GlobalMessage = couponMessage(500, "error", COUPON_TEXTS.notStackable);

/**
 * The banner for a refusal of canApplyCoupon: stacking has its own text; an expired, used-up or
 * already-applied code is "invalid" (the web disables applying a code twice, so the last one is only
 * seen when another tab applied it first).
 */
export function couponRefusalMessage(reason: CouponRefusal, code: string): GlobalMessage {
  return reason === "not_stackable" ? COUPON_NOT_STACKABLE_MESSAGE : couponInvalidMessage(code);
}

/**
 * What a coupon gives, in a few words for a badge or a list (the registration page after the look-up,
 * the subscription page): "20% off", "$2.50 off each dashboard", "+2 bonus dashboards",
 * "10 dashboards for life". Money in USD (docs/product.md §9), at most 2 decimals.
 */
export function couponSummary(coupon: Pick<Coupon, "type" | "value">): string {
  const plural = (count: number) => (count === 1 ? "dashboard" : "dashboards");
  if (coupon.type === "price.discount") return `${Math.round(coupon.value * 100) / 100}% off`;
  if (coupon.type === "price.fixed") return `$${(coupon.value / 100).toFixed(2)} off each dashboard`;
  if (coupon.type === "dashboards.bonus") return `+${coupon.value} bonus ${plural(coupon.value)}`;
  return `${coupon.value} ${plural(coupon.value)} for life`;
}

/** "3 of 25 used (+ 2 bonus)": the plan's dashboards and, when there are any, the bonus ones on top. */
export function dashboardsUsedText(dashboardsCount: number, services: { dashboards: number; bonusDashboards: number }) {
  const used = `${dashboardsCount} of ${services.dashboards} used`;
  return services.bonusDashboards > 0 ? `${used} (+ ${services.bonusDashboards} bonus)` : used;
}
