import type { TCouponInfo } from "@app/core";
import { useQuery } from "@tanstack/react-query";
import { ApiError, call } from "../../lib/api";

/** What the registration page knows of one code from its URL. */
export type CouponCheck =
  | { code: string; status: "checking" }
  | { code: string; status: "valid"; info: TCouponInfo }
  | { code: string; status: "invalid" };

/** GET /api/coupons/:code (docs/product.md §7): what the code gives, or null when it cannot be applied (404). */
async function lookUpCoupon(code: string): Promise<TCouponInfo | null> {
  try {
    return (await call("couponLookup", { params: { code }, query: {} })).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** null: no answer (a rate limit, the network), which the page treats as not valid. */
const lookUpOrNull = (code: string) => lookUpCoupon(code).catch(() => null);

/**
 * Checks the codes once as the page loads, in one query (not `useQueries`: that hook would join the
 * react-query chunk every page loads, the public dashboard's first load included; its budget in apps/web/src/bundle-budget.test.ts).
 * A look-up that fails for another reason (rate limit, network) counts as not valid too
 * (docs/product.md §8 "Code / Coupon not valid"): the page never promises a code it could not check.
 */
export function useCouponChecks(codes: readonly string[]): CouponCheck[] {
  const keys = codes.map((code) => code.toLowerCase());
  const query = useQuery({
    queryKey: ["coupon-lookup", ...keys],
    queryFn: () => Promise.all(codes.map(lookUpOrNull)),
    retry: false,
    staleTime: 5 * 60_000,
    enabled: codes.length > 0,
  });
  return codes.map((code, index): CouponCheck => {
    if (codes.length > 0 && query.isPending) return { code, status: "checking" };
    const info = query.data?.[index] ?? null;
    return info ? { code, status: "valid", info } : { code, status: "invalid" };
  });
}
