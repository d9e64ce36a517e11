import type { Feature } from "../registry";
import { passkeyStepRoutes } from "./passkey-step";
import { twoFactorRoutes } from "./routes";
import { twoFactorService } from "./service";
import { pendingSignIns } from "./sign-in";

export { hasSecondFactor } from "./second-factor";

/**
 * Two-factor sign-in (docs/product.md, "Two-factor sign-in"): TOTP and recovery codes, the sign-in's
 * second step (features/auth and features/social-auth open a pending sign-in through `twoFactorSignIns`),
 * the company's requirement (a request hook app.ts adds after the session is resolved), and the
 * sweep of expired pending sign-ins (a job).
 */
export const twoFactorFeature: Feature = {
  name: "two-factor",
  services: (ctx, services) => ({
    twoFactor: twoFactorService(ctx, () => services.get("sessions").forgetAll()),
    twoFactorSignIns: pendingSignIns(ctx, () => services.get("auth")),
  }),
  routes: (app, ctx, services) => {
    twoFactorRoutes(app, ctx, services.get("twoFactor"), services.get("twoFactorSignIns"));
    passkeyStepRoutes(app, ctx, services.get("twoFactorSignIns"), services.get("passkeys"));
  },
  jobs: (_ctx, services) => [services.get("twoFactorSignIns").sweepJob()],
};
