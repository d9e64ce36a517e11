import { createSessionCache, followRevocations, type SessionCache } from "../../infra/session-cache";
import type { Feature } from "../registry";
import { authRoutes } from "./routes";
import { type AuthState, authService } from "./service";

/** This process's resolved sessions, dropped when any process revokes them (event bus). */
export interface SessionsService {
  cache: SessionCache<AuthState>;
  /** A user or company changed: this process forgets at once, the others through the bus. */
  forgetAll(): void;
}

export const authFeature: Feature = {
  name: "auth",
  services(ctx, services) {
    const cache = createSessionCache<AuthState>();
    services.onClose(followRevocations(cache, ctx.events));
    const sessions: SessionsService = {
      cache,
      forgetAll() {
        cache.clear();
        ctx.events.publish("session.revoked", {}).catch((error) => ctx.logger.error({ err: error }, "publish failed"));
      },
    };
    const auth = authService(
      ctx,
      services.get("companies"),
      cache,
      () => services.get("billing").claims,
      // Sign-in's second step, for users with one (features/two-factor).
      (user) => services.get("twoFactorSignIns").begin(user),
    );
    return { sessions, auth };
  },
  routes: (app, ctx, services) => authRoutes(app, ctx, services.get("auth")),
};
