import type { Feature } from "../registry";
import { deliveryService, SCHEDULE_JOB } from "./delivery";
import { prewarmService } from "./prewarm";
import { reportRoutes } from "./routes";
import { reportsService } from "./service";

/** Automatic reports: the API, and their delivery by e-mail (scheduler and send jobs). */
export const reportsFeature: Feature = {
  name: "reports",
  services: (ctx, services) => {
    const delivery = deliveryService(ctx, {
      companies: () => services.get("companies"),
      dashboards: () => services.get("dashboards"),
      renderer: () => services.get("exports").renderer,
      insights: () => services.get("insights"),
      sender: (companyId) => services.get("sender").senderFor(companyId),
    });
    const prewarm = prewarmService(ctx, {
      dashboards: () => services.get("dashboards"),
      widgets: () => services.get("widgets"),
    });
    return {
      reports: reportsService(ctx, services.get("companies"), () => delivery),
      reportDelivery: delivery,
      reportPrewarm: prewarm,
    };
  },
  routes: (app, _ctx, services) => reportRoutes(app, services.get("reports")),
  jobs: (_ctx, services) => [...services.get("reportDelivery").jobs, ...services.get("reportPrewarm").jobs],
  // A slot missed while the service was down goes out on start, not at the next minute's pass.
  onJobsStarted: async (ctx) => {
    await ctx.jobs.enqueue(SCHEDULE_JOB, {}, { key: `reports.schedule@start:${ctx.clock.now().toISOString()}` });
  },
};
