import { API } from "@app/core";
import type { AppContext } from "../../context";
import { type App, adminOnly, requireAdmin } from "../../infra/http";
import type { CouponsService } from "./service";

/** Coupon calls of docs/product.md §7: the public look-up and applying a code (admins, docs/product.md §6). */
export function couponRoutes(app: App, ctx: AppContext, coupons: CouponsService) {
  const tags = ["coupons"];
  // Public, so limited per address in the shared store: enough for a registration page checking its
  // codes (and a few retries), too few to guess codes by the thousand.
  const rateLimit = { max: ctx.config.rateLimit.authMax * 3, timeWindow: ctx.config.rateLimit.windowMs };

  app.get(
    "/api/coupons/:code",
    {
      config: { public: true, rateLimit },
      schema: {
        tags,
        summary: "What a coupon code does (404 when it cannot be applied)",
        params: API.couponLookup.params,
        querystring: API.couponLookup.query,
        response: { 200: API.couponLookup.output },
      },
    },
    async (request) => ({ data: await coupons.lookup(request.params.code) }),
  );

  app.post(
    "/api/company/coupon",
    {
      preValidation: adminOnly,
      schema: {
        tags,
        summary: "Apply a coupon code to the company",
        body: API.companyCouponApply.body,
        response: { 200: API.companyCouponApply.output },
      },
    },
    async (request) => coupons.apply(requireAdmin(request).companyId, request.body.coupon),
  );
}
