import type { TCouponApplyResponse } from "@app/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { call } from "../../lib/api";
import { useReplacePageCompany } from "../session/hooks";
import { companyKeys } from "./queries";

/** POST /api/company/coupon (docs/product.md §7): the company's codes, the company, the banner's words. */
export function applyCoupon(coupon: string): Promise<TCouponApplyResponse> {
  return call("companyCouponApply", { body: { coupon } });
}

/**
 * Applies a code; on success the company (allowance, coupons, state) is replaced where the app reads it
 * (docs/product.md §8: "company data reloads"), so every page shows the new bonus at once.
 */
export function useApplyCoupon() {
  const queryClient = useQueryClient();
  const replacePageCompany = useReplacePageCompany();
  return useMutation({
    mutationFn: applyCoupon,
    onSuccess: (result) => {
      queryClient.setQueryData(companyKeys.company, result.data);
      replacePageCompany(result.data);
    },
  });
}
