import type { Feature } from "../registry";
import { configRoutes } from "./configs";
import { sourceRoutes } from "./routes";
import { sourcesService } from "./service";

export const sourcesFeature: Feature = {
  name: "sources",
  services: (ctx, services) => ({
    sources: sourcesService(ctx, services.get("files"), async (companyId) => {
      return (await services.get("companies").get(companyId)).name;
    }),
  }),
  routes(app, ctx, services) {
    sourceRoutes(app, services.get("sources"));
    configRoutes(app, ctx.config.providers);
  },
  // docs/product.md, "Expiring logins": the admins are mailed a week before a source's login ends.
  jobs: (_ctx, services) => [services.get("sources").loginExpiry.job()],
  async onJobsStarted(_ctx, services) {
    await services.get("sources").loginExpiry.copyMissingExpiries();
  },
};
