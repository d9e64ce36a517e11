import type { Feature } from "../registry";
import { templateResolver } from "../sources/template-instances";
import { dashboardRoutes } from "./routes";
import { dashboardsService } from "./service";

export const dashboardsFeature: Feature = {
  name: "dashboards",
  services: (ctx, services) => ({
    dashboards: dashboardsService(
      ctx,
      ctx.storage,
      services.get("companies"),
      templateResolver(services.get("sources")),
      (companyId, dashboardId) => services.get("reports").forDashboard(companyId, dashboardId),
      (...removed) => services.get("widgetAlerts").removeWithGoals(...removed),
    ),
  }),
  routes: (app, ctx, services) =>
    dashboardRoutes(app, services.get("dashboards"), services.get("widgets"), {
      max: ctx.config.rateLimit.authMax * 10,
      timeWindow: ctx.config.rateLimit.windowMs,
    }),
};
