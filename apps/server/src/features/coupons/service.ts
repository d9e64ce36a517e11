import {
  COUPON_TEXTS,
  type Coupon,
  canApplyCoupon,
  couponKey,
  isCouponExpired,
  isCouponUsedUp,
  PRICE_COUPON_TYPES,
  type TCompanyCoupon,
  type TCouponApplyResponse,
  type TCouponInfo,
} from "@app/core";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import type { CompaniesService } from "../companies/service";
import { appliedCoupons, couponLedger, couponOf, type LedgerResult } from "./ledger";
import { couponsRepo } from "./repo";

export { couponLedger } from "./ledger";

/**
 * Coupons as the product uses them (docs/product.md §5, §7, §8): the public look-up, applying a code to a
 * company, and what the company has (its page, its price). Operators define coupons with the CLI
 * (`npm run coupons`, see catalogue.ts).
 */
/** After a lifetime deal committed: the card subscription it replaced is canceled (features/billing). */
export type ReplacedSubscription = (companyId: string, subscriptionId: string) => Promise<void>;

/** After a price coupon committed: the company's card subscription charges the new price (features/billing). */
export type RepricedSubscription = (companyId: string, couponKey: string) => Promise<void>;

export function couponsService(
  ctx: AppContext,
  companies: CompaniesService,
  replaced: ReplacedSubscription = async () => {},
  repriced: RepricedSubscription = async () => {},
) {
  const repo = couponsRepo(ctx.db);

  /** A coupon that could be applied now by someone (known, not expired, not used up), or null. */
  async function usable(code: string): Promise<{ coupon: Coupon; name: string } | null> {
    const row = await repo.find(couponKey(code));
    const coupon = row ? couponOf(row) : null;
    if (!row || !coupon || isCouponExpired(coupon, ctx.clock.now()) || isCouponUsedUp(coupon)) return null;
    return { coupon, name: row.name };
  }

  return {
    /**
     * GET /api/coupons/:code (docs/product.md §7): what a code does, or 404 "Code / Coupon not valid".
     * The answer is the same whatever e-mail is given, so the look-up cannot tell who has an account;
     * whether this company may stack it is decided when it is applied.
     */
    async lookup(code: string): Promise<TCouponInfo> {
      const found = await usable(code);
      if (!found) throw AppError.notFound(COUPON_TEXTS.notValid);
      const { coupon, name } = found;
      return { code: coupon.code, type: coupon.type, value: coupon.value, name };
    },

    /**
     * POST /api/company/coupon: applies the code (or 422 with the refusal's words). Through the
     * companies service's one door for state changes, so members' browsers hear
     * CompanySubscriptionUpdated with the new allowance (a bonus) or state (a lifetime deal). A lifetime
     * deal on a company paying by card ends that subscription once the coupon is committed, so Stripe
     * stops charging; a subscription already canceled ends with its period and is left alone. A price
     * coupon (percent or fixed) on a company paying by card reaches its Stripe subscription once
     * committed, so the next invoice charges the price the subscription page shows.
     */
    async apply(companyId: string, code: string): Promise<TCouponApplyResponse> {
      const now = ctx.clock.now();
      const outcome: { result?: LedgerResult; replaced?: string } = {};
      const company = await companies.setState(
        companyId,
        (row) => {
          const lifetime = outcome.result?.lifetime;
          // An empty patch still counts as a change: the bonus dashboards were written alongside.
          if (!lifetime) return {};
          if (row.subscription_id && row.state !== "canceled") outcome.replaced = row.subscription_id;
          return lifetime;
        },
        async (tx) => {
          outcome.result = await couponLedger(tx, now).apply(companyId, code);
          return true;
        },
      );
      if (outcome.replaced) await replaced(companyId, outcome.replaced);
      const applied = outcome.result?.applied ?? [];
      const last = applied.at(-1);
      if (last && (last.type === PRICE_COUPON_TYPES.discount || last.type === PRICE_COUPON_TYPES.fixed)) {
        await repriced(companyId, couponKey(last.code));
      }
      return {
        applied: applied.map((item) => item.code),
        data: company,
        message: COUPON_TEXTS.activated(code.trim()),
      };
    },

    /** The company's coupons, oldest first (the company shape, the subscription page). */
    appliedOf(companyId: string): Promise<TCompanyCoupon[]> {
      return appliedCoupons(ctx.db, companyId);
    },

    /**
     * Coupons as a price sees them (core `quote({coupons})`): the company's applied ones, or, before an
     * account exists (the registration's checkout), the given codes in order as registration would
     * apply them, leaving out what it would refuse (unknown, expired, used up, twice, not stackable).
     */
    async forPrice(companyId: string | null, codes: readonly string[] = []): Promise<Coupon[]> {
      if (companyId) {
        const applied = await appliedCoupons(ctx.db, companyId);
        return applied.map(({ code, type, value, name }) => ({ code, type, value, name }));
      }
      const now = ctx.clock.now();
      const counted: Coupon[] = [];
      for (const code of codes) {
        const row = await repo.find(couponKey(code));
        const coupon = row ? couponOf(row) : null;
        if (coupon && canApplyCoupon(counted, coupon, now).ok) counted.push(coupon);
      }
      return counted;
    },
  };
}

export type CouponsService = ReturnType<typeof couponsService>;
