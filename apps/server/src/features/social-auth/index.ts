import type { Feature } from "../registry";
import { socialAuthRoutes } from "./routes";
import { socialAuthService } from "./service";

/** Social sign-up and login with Google, Facebook and LinkedIn (docs/product.md §7; docs/operations.md "Social sign-in"). */
export const socialAuthFeature: Feature = {
  name: "social-auth",
  // No other feature asks for it, so its service is built with its routes.
  routes: (app, ctx, services) =>
    socialAuthRoutes(
      app,
      ctx,
      socialAuthService(ctx, services.get("auth"), {
        coupons: services.get("coupons"),
        billing: services.get("billing"),
        secondStep: (user) => services.get("twoFactorSignIns").begin(user),
      }),
    ),
};
