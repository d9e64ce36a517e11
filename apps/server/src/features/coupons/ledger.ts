import {
  COUPON_TEXTS,
  COUPON_TYPES,
  type Coupon,
  type CouponEffects,
  type CouponType,
  canApplyCoupon,
  couponEffects,
  couponKey,
  couponRefusalText,
  type TCompanyCoupon,
} from "@app/core";
import type { Db } from "../../infra/db";
import type { CouponsTable } from "../../infra/db/schema";
import { AppError, isUniqueViolation } from "../../infra/errors";
import { couponsRepo, LIFETIME_STATE } from "./repo";

function isCouponType(type: string): type is CouponType {
  return (COUPON_TYPES as readonly string[]).includes(type);
}

/** A stored coupon as the core rules read it; null for a type this version does not know (never applied). */
export function couponOf(row: CouponsTable): Coupon | null {
  if (!isCouponType(row.type)) return null;
  return {
    code: row.code,
    type: row.type,
    value: row.value,
    name: row.name,
    expiresAt: row.expires_at,
    maxRedemptions: row.max_redemptions,
    redemptions: row.redemptions,
  };
}

/** The 422 of a refused code: the field `coupon` (as the registration page maps it) and the same words as the message. */
export function couponRefusal(text: string): AppError {
  return AppError.validation({ coupon: [text] }, text);
}

/** The company's coupons, oldest first (rows of a type this version does not know are left out). */
export async function appliedCoupons(db: Db, companyId: string): Promise<TCompanyCoupon[]> {
  const rows = await couponsRepo(db).appliedOf(companyId);
  return rows.flatMap((row) =>
    isCouponType(row.type)
      ? [{ code: row.code, type: row.type, value: row.value, name: row.name, appliedAt: row.applied_at }]
      : [],
  );
}

/** What applying codes changed: the company's coupons now, and the lifetime deal's state if one was applied. */
export interface LedgerResult {
  applied: TCompanyCoupon[];
  effects: CouponEffects;
  /**
   * ltd.appsumo: served for life with these dashboards (an active state without subscription or
   * expiry); a card subscription the company had is replaced (billing cancels it at Stripe).
   */
  lifetime: (typeof LIFETIME_STATE & { services_dashboards: number }) | null;
}

/**
 * Applies codes to a company on `db`, which must be a transaction (the redemption, the company's coupon
 * and its bonus dashboards are written together or not at all). The lifetime deal's state change is
 * returned, not written: POST /api/company/coupon hands it to the companies service's one door for state
 * changes; registration writes it on the company it is creating (no browser is listening yet).
 */
export function couponLedger(db: Db, now: Date) {
  const repo = couponsRepo(db);

  /** Applies one code, or throws the refusal of docs/product.md §8. */
  async function apply(companyId: string, typed: string): Promise<LedgerResult> {
    if (!(await repo.lockCompany(companyId))) throw AppError.notFound("Company not found.");
    const key = couponKey(typed);
    const row = await repo.find(key);
    const coupon = row ? couponOf(row) : null;
    // Messages name the code as the user typed it (docs/product.md §8 "{code}"); the list keeps the operator's spelling.
    const shown = typed.trim();
    if (!row || !coupon) throw couponRefusal(COUPON_TEXTS.invalid(shown));
    const before = await appliedCoupons(db, companyId);
    const verdict = canApplyCoupon(before, coupon, now);
    if (!verdict.ok) throw couponRefusal(couponRefusalText(verdict.reason, shown));
    // Checked again where it counts: another company may have taken the last redemption meanwhile.
    if (!(await repo.redeem(key))) throw couponRefusal(couponRefusalText("used_up", shown));
    const appliedAt = now.toISOString();
    await repo
      .insertApplied({ company_id: companyId, coupon_key: key, position: before.length + 1, applied_at: appliedAt })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw couponRefusal(couponRefusalText("already_applied", shown));
        throw error;
      });
    if (coupon.type === "dashboards.bonus") await repo.addBonusDashboards(companyId, Math.floor(coupon.value));
    const applied = [...before, { code: row.code, type: coupon.type, value: coupon.value, name: row.name, appliedAt }];
    const effects = couponEffects(applied);
    const lifetime =
      coupon.type === "ltd.appsumo" && effects.lifetime
        ? { ...LIFETIME_STATE, services_dashboards: effects.lifetime.dashboards }
        : null;
    return { applied, effects, lifetime };
  }

  return {
    apply,
    /**
     * Registration's codes, in order, on the company being created: the first refusal stops everything
     * (the caller's transaction rolls back, so no account is left behind).
     */
    async applyAtSignUp(companyId: string, codes: readonly string[]): Promise<CouponEffects> {
      let effects = couponEffects([]);
      for (const code of codes) {
        const result = await apply(companyId, code);
        effects = result.effects;
        if (result.lifetime) await repo.grantLifetime(companyId, result.lifetime.services_dashboards);
      }
      return effects;
    },
  };
}
