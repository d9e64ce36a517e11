import {
  COUPON_TEXTS,
  type Coupon,
  canApplyCoupon,
  couponRefusalText,
  SOCIAL_PAYMENT_REQUIRED,
  type TSocialAuthError,
  type TSocialRegister,
} from "@app/core";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import type { BillingService } from "../billing/service";
import type { CouponsService } from "../coupons/service";

/** What a social sign-up reads of the coupons and billing features. */
export interface SocialRegistrationDeps {
  coupons: Pick<CouponsService, "lookup">;
  billing: Pick<BillingService, "enabled" | "claims" | "refunds">;
}

/**
 * A social sign-up's coupons and payment, checked before the browser is sent to the provider
 * (docs/product.md §4: validate, pay, then submit), so a refusal is a 422 per field on the page, as the
 * form's, and never a round trip through the provider. The callback registers through auth.register,
 * which checks both again where it counts (in its transaction: a code used up or an order claimed
 * meanwhile rolls everything back).
 */
export function socialRegistrationChecks(ctx: AppContext, deps: SocialRegistrationDeps) {
  /** The first code registration would refuse, with its words (docs/product.md §8), or null. */
  async function couponRefusal(codes: readonly string[]): Promise<string | null> {
    const counted: Coupon[] = [];
    for (const typed of codes) {
      const shown = typed.trim();
      // The look-up refuses what nobody could apply now (unknown, expired, used up): "{code} is invalid".
      const found = await deps.coupons.lookup(typed).catch((error: unknown) => {
        if (error instanceof AppError && error.code === "not_found") return null;
        throw error;
      });
      if (!found) return COUPON_TEXTS.invalid(shown);
      // Twice, or not stackable after the codes before it: the stacking rules registration applies.
      const verdict = canApplyCoupon(counted, found, ctx.clock.now());
      if (!verdict.ok) return couponRefusalText(verdict.reason, shown);
      counted.push(found);
    }
    return null;
  }

  /** 422 on `order_ref`: payments on and no order, or an order that is forged, unpaid or claimed. */
  async function orderRefusal(input: TSocialRegister): Promise<string[] | null> {
    if (!input.order_ref) return deps.billing.enabled ? [SOCIAL_PAYMENT_REQUIRED] : null;
    try {
      await deps.billing.claims.verify(input.order_ref, input.order_id);
      return null;
    } catch (error) {
      if (error instanceof AppError && error.code === "validation" && error.fields?.order_ref) {
        return error.fields.order_ref;
      }
      throw error;
    }
  }

  return {
    /** Throws the 422 of every refused part (coupon, order_ref) at once; nothing is kept. */
    async check(input: TSocialRegister): Promise<void> {
      const fields: Record<string, string[]> = {};
      const coupon = await couponRefusal(input.coupons ?? []);
      if (coupon) fields.coupon = [coupon];
      const order = await orderRefusal(input);
      if (order) fields.order_ref = order;
      if (Object.keys(fields).length > 0) throw AppError.validation(fields, coupon ?? order?.[0]);
    },

    /**
     * Why auth.register refused the sign-up at the callback, as the code the page shows; undefined for
     * an error that is not a refusal. Nothing was created either way (its transaction rolled back).
     */
    refusalOf(error: unknown): TSocialAuthError | undefined {
      if (!(error instanceof AppError)) return undefined;
      if (error.code === "unavailable") return "payment_unavailable";
      if (error.code !== "validation") return undefined;
      if (error.fields?.order_ref) return "payment_refused";
      if (error.fields?.coupon) return "coupon_refused";
      // Someone registered this address a moment ago: trying again finds (and links) that account.
      return "expired";
    },
  };
}

export type SocialRegistrationChecks = ReturnType<typeof socialRegistrationChecks>;
