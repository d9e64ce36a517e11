import type { Feature } from "../registry";
import { reportRoutes } from "./routes";
import { reportsService } from "./service";

export const reportsFeature: Feature = {
  name: "reports",
  services: (ctx, services) => ({ reports: reportsService(ctx, services.get("companies")) }),
  routes: (app, _ctx, services) => reportRoutes(app, services.get("reports")),
};
