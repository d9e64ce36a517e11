import { couponEffects } from "@app/core";
import type { Feature } from "../registry";
import { userRoutes } from "./routes";
import { usersService } from "./service";

export const usersFeature: Feature = {
  name: "users",
  services: (ctx, services) => ({
    users: usersService(
      ctx,
      () => services.get("sessions").forgetAll(),
      // The intro questionnaire may not change the flow a lifetime deal imposes (features/coupons).
      async (companyId) => couponEffects(await services.get("coupons").appliedOf(companyId)).forcedFlow,
    ),
  }),
  routes: (app, _ctx, services) => userRoutes(app, services.get("users")),
};
