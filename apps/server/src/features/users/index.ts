import type { Feature } from "../registry";
import { userRoutes } from "./routes";
import { usersService } from "./service";

export const usersFeature: Feature = {
  name: "users",
  services: (ctx, services) => ({ users: usersService(ctx, () => services.get("sessions").forgetAll()) }),
  routes: (app, _ctx, services) => userRoutes(app, services.get("users")),
};
