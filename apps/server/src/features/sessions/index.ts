import type { Feature } from "../registry";
import { geoPlaces } from "./geoip";
import { signedInSessionRoutes } from "./routes";
import { signedInSessionsService } from "./service";

/** The profile's list of signed-in sessions (docs/product.md §2, "Signed-in sessions"). */
export const signedInSessionsFeature: Feature = {
  name: "sessions",
  services: (ctx, services) => ({
    signedInSessions: signedInSessionsService(
      ctx,
      () => services.get("auth"),
      geoPlaces(ctx.config.geoipDatabase, ctx.logger),
    ),
  }),
  routes: (app, _ctx, services) => signedInSessionRoutes(app, services.get("signedInSessions")),
};
