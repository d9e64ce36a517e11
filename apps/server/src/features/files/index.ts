import type { Feature } from "../registry";
import { fileRoutes } from "./routes";
import { filesService } from "./service";

export const filesFeature: Feature = {
  name: "files",
  services: (ctx) => ({ files: filesService(ctx, ctx.storage) }),
  routes: (app, _ctx, services) => fileRoutes(app, services.get("files")),
};
