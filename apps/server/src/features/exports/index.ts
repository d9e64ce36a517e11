import type { Feature } from "../registry";
import { createDashboardRenderer } from "./chromium-renderer";
import { exportRoutes } from "./routes";
import { exportsService } from "./service";

/** PDF export and the renderer reports use (docs/product.md §4, §7). */
export const exportsFeature: Feature = {
  name: "exports",
  services: (ctx, services) => {
    const dashboards = services.get("dashboards");
    return { exports: exportsService(ctx, dashboards, createDashboardRenderer(ctx, dashboards)) };
  },
  routes: (app, _ctx, services) => exportRoutes(app, services.get("exports")),
  jobs: (_ctx, services) => services.get("exports").jobs,
  // A process that renders warms its browser and print view in the background once it runs jobs, so the
  // first PDF after a start does not pay for them; not awaited: start-up and /api/health never wait on it.
  onJobsStarted: async (_ctx, services) => {
    void services.get("exports").renderer.warmUp?.();
  },
};
