import type { Feature } from "../registry";
import { createTableCache } from "./query-runner";
import { widgetRoutes } from "./routes";
import { widgetsService } from "./service";

export const widgetsFeature: Feature = {
  name: "widgets",
  services: (ctx, services) => ({
    widgets: widgetsService(services.get("sources"), createTableCache({}, ctx.cache), ctx.rateLimits, () =>
      ctx.clock.now(),
    ),
  }),
  routes: (app, _ctx, services) => widgetRoutes(app, services.get("widgets")),
};
