import type { Feature } from "../registry";
import { healthRoutes } from "./routes";

export const healthFeature: Feature = {
  name: "health",
  routes: (app, ctx) => healthRoutes(app, ctx.db),
};
