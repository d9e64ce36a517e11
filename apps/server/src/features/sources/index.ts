import type { Feature } from "../registry";
import { configRoutes } from "./configs";
import { sourceRoutes } from "./routes";
import { sourcesService } from "./service";

export const sourcesFeature: Feature = {
  name: "sources",
  services: (ctx, services) => ({ sources: sourcesService(ctx, services.get("files")) }),
  routes(app, ctx, services) {
    sourceRoutes(app, services.get("sources"));
    configRoutes(app, ctx.config.providers);
  },
};
