import { z } from "zod";
import { COUPON_TYPES, couponValueProblem } from "../billing/coupons";
import { isValidDay } from "../dates/day";
import { ZCompany } from "./company";

/** What a user types as a code (look-up, apply, the registration's list); anything longer is no code of ours. */
export const zCouponCode = z
  .string({ error: "Enter a code." })
  .trim()
  .min(1, "Enter a code.")
  .max(64, "A code is at most 64 characters.");

/** A coupon as the look-up answers it (docs/product.md §3 "Coupon response data": type, value, name). */
export const ZCouponInfo = z.object({
  code: z.string(),
  type: z.enum(COUPON_TYPES),
  value: z.number(),
  name: z.string(),
});
export type TCouponInfo = z.infer<typeof ZCouponInfo>;

/** GET /api/coupons/:code?email= (public, rate-limited). */
export const ZCouponLookupParams = z.object({ code: zCouponCode });
export const ZCouponLookupQuery = z.object({ email: z.string().max(254).optional() });
export const ZCouponLookupResponse = z.object({ data: ZCouponInfo });
export type TCouponLookupResponse = z.infer<typeof ZCouponLookupResponse>;

/** POST /api/company/coupon (docs/product.md §7: `{coupon}`). */
export const ZCouponApply = z.strictObject({ coupon: zCouponCode });
export type TCouponApply = z.infer<typeof ZCouponApply>;

/** The codes the company now has (oldest first, docs/product.md §7 `applied`), the company, and the banner text. */
export const ZCouponApplyResponse = z.object({
  applied: z.array(z.string()),
  data: ZCompany,
  message: z.string(),
});
export type TCouponApplyResponse = z.infer<typeof ZCouponApplyResponse>;

/** Codes an operator creates: letters, digits, `-` and `_`, so a code reads the same in a URL and a mail. */
const COUPON_CODE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A coupon as the operator defines it (the `coupons` CLI and its JSON import): the value's meaning
 * depends on the type (couponValueProblem); `expires` is the first day the code no longer works (UTC).
 */
export const ZCouponDefinition = z
  .strictObject({
    code: zCouponCode.regex(COUPON_CODE, "A code uses only letters, digits, - and _."),
    type: z.enum(COUPON_TYPES, { error: `The type must be one of ${COUPON_TYPES.join(", ")}.` }),
    value: z.coerce.number({ error: "The value must be a number above 0." }),
    name: z.string().trim().max(120, "A name is at most 120 characters.").optional(),
    max: z.coerce
      .number({ error: "The maximum must be a whole number of at least 1." })
      .int("The maximum must be a whole number of at least 1.")
      .min(1, "The maximum must be a whole number of at least 1.")
      .optional(),
    expires: z
      .string()
      .regex(DAY, "The expiry must be a date written YYYY-MM-DD.")
      // A calendar day: 2026-02-30, which Date would quietly read as March 2, is refused.
      .refine(isValidDay, "The expiry must be a real date.")
      .optional(),
  })
  .superRefine((value, ctx) => {
    const problem = couponValueProblem(value.type, value.value);
    if (problem) ctx.addIssue({ code: "custom", path: ["value"], message: problem });
  });
export type TCouponDefinition = z.infer<typeof ZCouponDefinition>;
