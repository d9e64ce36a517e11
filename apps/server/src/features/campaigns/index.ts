import type { Feature } from "../registry";
import { campaignRoutes } from "./routes";
import { campaignsService } from "./service";

/** Mission Control ("groups" in the UI): groups of client domains, their daily metrics and alerts. */
export const campaignsFeature: Feature = {
  name: "campaigns",
  // The sources service is looked up when first used: the connected-sources provider asks it.
  services: (ctx, services) => ({
    campaigns: campaignsService(
      ctx,
      () => services.get("sources"),
      // The digest comes from the agency, as its reports do (its name, its verified address).
      (companyId) => services.get("sender").senderFor(companyId),
      () => services.get("widgetAlerts"),
    ),
  }),
  routes: (app, _ctx, services) => campaignRoutes(app, services.get("campaigns")),
  jobs: (_ctx, services) => services.get("campaigns").jobs,
};
