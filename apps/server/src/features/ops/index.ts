import type { Feature } from "../registry";
import { probeJob } from "./jobs";
import { opsRoutes } from "./routes";
import { opsService } from "./service";

/** Operator endpoints and the probe job (docs/operations.md). */
export const opsFeature: Feature = {
  name: "ops",
  routes: (app, ctx, services) =>
    opsRoutes(
      app,
      opsService(ctx, () => services.get("billing").discounts),
      ctx.config.opsToken,
    ),
  jobs: (ctx) => [probeJob(ctx)],
};
