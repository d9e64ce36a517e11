import type { Feature } from "../registry";
import { couponRoutes } from "./routes";
import { couponsService } from "./service";

export const couponsFeature: Feature = {
  name: "coupons",
  services: (ctx, services) => ({
    coupons: couponsService(
      ctx,
      services.get("companies"),
      (companyId, subscriptionId) => services.get("billing").lifetime.cancelReplaced(companyId, subscriptionId),
      (companyId, couponKey) => services.get("billing").discounts.afterCoupon(companyId, couponKey),
    ),
  }),
  routes: (app, ctx, services) => couponRoutes(app, ctx, services.get("coupons")),
};
