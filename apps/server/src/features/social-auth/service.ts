import {
  isSocialProvider,
  SOCIAL_PROVIDER_NAMES,
  type TSocialAuthError,
  type TSocialCallbackQuery,
  type TSocialProvider,
  type TSocialRegister,
} from "@app/core";
import type { AppContext } from "../../context";
import type { UsersTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { AuthService } from "../auth/service";
import type { SignInResult } from "../two-factor/pending";
import { type SocialClient, socialClients } from "./providers";
import { type SocialRegistrationDeps, socialRegistrationChecks } from "./registration";
import { type Mode, type PendingSignIn, type Settled, settleSteps, socialSignIn } from "./settle";

/**
 * How a callback ends: signed in (a session token and where to go), a pending sign-in waiting for its
 * second step (its token; features/two-factor), or back to a page with the reason.
 */
export type SocialOutcome =
  | { kind: "signed-in"; token: string; redirect: string }
  | { kind: "second-step"; token: string; redirect: string }
  | { kind: "refused"; redirect: string };

/** What social sign-in needs of other features: registration's checks, and sign-in's second step. */
export interface SocialAuthDeps extends SocialRegistrationDeps {
  /** A pending sign-in for a user with a second factor, or null (features/two-factor). */
  secondStep?: (user: UsersTable) => Promise<SignInResult | null>;
}

/** Ten minutes to get through the provider's pages, as for the connectors' OAuth. */
export const SOCIAL_STATE_TTL_MS = 10 * 60_000;

const PAGE: Record<Mode, string> = { register: "/register", login: "/login" };

/**
 * Social sign-up and login (docs/product.md §2, §4, §7): `start` remembers the state, PKCE verifier and
 * nonce with the registration's plan and answers the provider's consent page; `callback` checks them,
 * asks the provider who signed in, and signs in the identity's user, links a user with the same
 * verified e-mail, or registers a new company as POST /register does (its coupons applied, its paid
 * checkout claimed). Never a duplicate user, and an address the provider does not vouch for never opens
 * someone else's account. Signing in an existing user claims and applies nothing; a paid checkout that
 * no new account took is refunded (billing.refunds) and the page says so. The callback's steps after its
 * state matched are in settle.ts.
 */
export function socialAuthService(
  ctx: AppContext,
  auth: AuthService,
  deps: SocialAuthDeps,
  clients: Partial<Record<TSocialProvider, SocialClient>> = socialClients(ctx.config.socialLogin),
) {
  const signUps = socialRegistrationChecks(ctx, deps);
  const pending = ctx.cache<PendingSignIn>("social-auth-state", { maxSize: 10_000, ttlMs: SOCIAL_STATE_TTL_MS });
  const redirectUri = (provider: TSocialProvider) => `${ctx.config.appUrl}/auth/${provider}/callback`;

  /** The provider's client, or 404 for an unknown provider and for one this server has no client for. */
  function clientOf(provider: string): { provider: TSocialProvider; client: SocialClient } {
    const client = isSocialProvider(provider) ? clients[provider] : undefined;
    if (!isSocialProvider(provider) || !client) throw AppError.notFound("This sign-in provider is not available.");
    return { provider, client };
  }

  const refused = (reason: TSocialAuthError, mode: Mode, provider: string): SocialOutcome => {
    const query = new URLSearchParams({ social_error: reason, provider });
    return { kind: "refused", redirect: `${PAGE[mode]}?${query}` };
  };

  const signIn = socialSignIn(auth, deps.secondStep ?? (async () => null));
  const { settle, refundUnclaimed } = settleSteps(ctx, auth, deps, { signUps, signIn, refused, redirectUri });

  return {
    /** 404 unless this server offers `provider` (before its form is looked at). */
    ensureOffered(provider: string): void {
      clientOf(provider);
    },

    /**
     * The consent page's address; `state` also goes into the browser's cookie, which the callback
     * compares. A registration's coupons and payment are checked first (422, the provider not asked).
     */
    async start(
      providerName: string,
      mode: Mode,
      registration: TSocialRegister | null,
    ): Promise<{ url: string; state: string }> {
      const { provider, client } = clientOf(providerName);
      if (registration) await signUps.check(registration);
      const { url, checks } = await client.start(redirectUri(provider)).catch((error: unknown) => {
        ctx.logger.warn({ err: error, provider }, "social sign-in could not start");
        throw new AppError(
          "unavailable",
          `${SOCIAL_PROVIDER_NAMES[provider]} cannot be reached right now. Please try again in a moment.`,
        );
      });
      await pending.set(checks.state, { provider, mode, checks, registration });
      return { url, state: checks.state };
    },

    /**
     * The provider sent the browser back. `cookieState` is the state the starting browser holds: a
     * callback opened in another browser (a link someone was sent) signs nobody in.
     */
    async callback(
      providerName: string,
      query: TSocialCallbackQuery,
      cookieState: string | null,
      previousToken: string | null,
    ): Promise<SocialOutcome> {
      const { provider, client } = clientOf(providerName);
      const started = query.state ? await pending.get(query.state) : undefined;
      // One use only: a replayed callback finds nothing. (Two racing in between both read it, but the
      // provider takes its code once, so the second exchange fails.)
      if (query.state) await pending.deletePrefix(query.state);
      if (!started || started.provider !== provider) return refused("expired", started?.mode ?? "login", provider);
      // The sign-up's page keeps no order once it left for the provider: what no new account took is given back.
      const order = started.mode === "register" ? started.registration?.order_ref : undefined;
      let settled: Settled;
      try {
        settled =
          !cookieState || cookieState !== query.state
            ? refused("expired", started.mode, provider)
            : await settle(started, provider, client, query, previousToken);
      } catch (error) {
        // An unexpected failure created nothing either (registration's transaction rolled back).
        if (order) await deps.billing.refunds.refundUnclaimed(order);
        throw error;
      }
      if (!order || settled.registered) return settled;
      return refundUnclaimed(provider, order, settled);
    },
  };
}

export type SocialAuthService = ReturnType<typeof socialAuthService>;
