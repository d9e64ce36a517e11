import type { Feature } from "../registry";
import { insightsRoutes } from "./routes";
import { insightsService } from "./service";

export const insightsFeature: Feature = {
  name: "insights",
  services: (ctx, services) => ({
    insights: insightsService(services.get("dashboards"), services.get("widgets"), {
      counters: ctx.rateLimits,
      now: () => ctx.clock.now(),
    }),
  }),
  routes: (app, _ctx, services) => insightsRoutes(app, services.get("insights")),
};
