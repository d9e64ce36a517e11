import type { Feature } from "../registry";
import { campaignRoutes } from "./routes";
import { campaignsService } from "./service";

/** Mission Control ("groups" in the UI): groups of client domains, their daily metrics and alerts. */
export const campaignsFeature: Feature = {
  name: "campaigns",
  services: (ctx) => ({ campaigns: campaignsService(ctx) }),
  routes: (app, _ctx, services) => campaignRoutes(app, services.get("campaigns")),
  jobs: (_ctx, services) => services.get("campaigns").jobs,
};
