import type { Feature } from "../registry";
import { oauthRoutes } from "./routes";
import { oauthService } from "./service";

/** OAuth connections of the provider connectors (docs/connectors.md). */
export const oauthFeature: Feature = {
  name: "oauth",
  services: (ctx, services) => ({ oauth: oauthService(ctx, () => services.get("sources")) }),
  routes(app, ctx, services) {
    oauthRoutes(app, services.get("oauth"), { title: ctx.config.siteTitle, appUrl: ctx.config.appUrl });
  },
};
