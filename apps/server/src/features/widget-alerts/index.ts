import type { Feature } from "../registry";
import { widgetAlertJobs } from "./jobs";
import { widgetAlertRoutes } from "./routes";
import { widgetAlertsService } from "./service";

/** Alerts on any widget metric (docs/decisions.md, "Alerts on any widget metric"): the API, and the hourly evaluation that mails openings. */
export const widgetAlertsFeature: Feature = {
  name: "widget-alerts",
  services: (ctx, services) => ({
    widgetAlerts: widgetAlertsService(ctx, {
      dashboards: () => services.get("dashboards"),
      widgets: () => services.get("widgets"),
      sender: (companyId) => services.get("sender").senderFor(companyId),
    }),
  }),
  routes: (app, _ctx, services) => widgetAlertRoutes(app, services.get("widgetAlerts")),
  jobs: (ctx, services) => widgetAlertJobs(ctx, () => services.get("widgetAlerts")).jobs,
};
