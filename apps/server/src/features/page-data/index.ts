import type { Feature } from "../registry";
import { pageDataRoutes } from "./routes";
import { pageDataService } from "./service";

export const pageDataFeature: Feature = {
  name: "page-data",
  services: (ctx, services) => ({
    pageData: pageDataService(
      ctx,
      services.get("auth"),
      services.get("companies"),
      services.get("sources").hasInvalidSource,
      (companyId) => services.get("sources").loginExpiry.expiringSources(companyId),
      (state) => services.get("twoFactor").setupRequired(state),
    ),
  }),
  routes: (app, ctx, services, options) =>
    pageDataRoutes(
      app,
      services.get("pageData"),
      options.webDist,
      services.get("dashboards").pageTitle,
      ctx.config.publicViewSsr,
    ),
};
