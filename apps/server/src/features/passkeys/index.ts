import type { Feature } from "../registry";
import { passkeyRoutes } from "./routes";
import { passkeysService } from "./service";

export type { PasskeysService } from "./service";

/**
 * WebAuthn passkeys (docs/product.md §7; docs/operations.md "Passkeys"): registered on the profile, a
 * passwordless sign-in, and `verifyForUser` / `optionsForUser` / `hasPasskey` for a second sign-in step.
 */
export const passkeysFeature: Feature = {
  name: "passkeys",
  services: (ctx, services) => ({
    passkeys: passkeysService(ctx, services.get("auth"), () => services.get("sessions").forgetAll()),
  }),
  routes: (app, ctx, services) => passkeyRoutes(app, ctx, services.get("passkeys")),
};
