import {
  isSocialProvider,
  SOCIAL_PROVIDER_NAMES,
  type TSocialAuthError,
  type TSocialAuthNotice,
  type TSocialCallbackQuery,
  type TSocialProvider,
  type TSocialRegister,
} from "@app/core";
import type { AppContext } from "../../context";
import type { UsersTable } from "../../infra/db/schema";
import { AppError, isUniqueViolation } from "../../infra/errors";
import { nowIso } from "../../infra/security";
import type { AuthService } from "../auth/service";
import type { SignInResult } from "../two-factor/pending";
import { userAccounts } from "../users/service";
import {
  type SignInChecks,
  type SocialClient,
  type SocialProfile,
  SocialProviderError,
  socialClients,
} from "./providers";
import { type SocialRegistrationDeps, socialRegistrationChecks } from "./registration";
import { identitiesRepo } from "./repo";

type Mode = "register" | "login";

/** A started sign-in, kept server-side (shared by every process) until the provider sends the browser back. */
interface PendingSignIn {
  provider: TSocialProvider;
  mode: Mode;
  checks: SignInChecks;
  /** The registration page's plan, consents, coupons and paid checkout (register mode only). */
  registration: TSocialRegister | null;
}

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

/**
 * Signs `user` in: a fresh session, ending the one the browser had (rotation, as at login). A user with
 * a second factor gets the second step first, unless the provider says it checked one itself (`mfa`:
 * Google's ID token `amr` claim; docs/decisions.md "Two-factor sign-in with TOTP").
 */
function socialSignIn(auth: AuthService, secondStep: NonNullable<SocialAuthDeps["secondStep"]>) {
  return async (user: UsersTable, previousToken: string | null, mfa = false): Promise<SocialOutcome> => {
    const pending = mfa ? null : await secondStep(user);
    if (pending) return { kind: "second-step", token: pending.token, redirect: pending.redirect };
    if (previousToken) await auth.logout(previousToken);
    // Straight to the intro when it is not passed yet: the guard would send the user there anyway and drop
    // the query, and with it a notice added to this address (a refunded sign-up, refundUnclaimed).
    const redirect = user.intro_passed ? "/dashboards" : "/intro";
    return { kind: "signed-in", token: await auth.startSession(user), redirect };
  };
}

/** A callback's outcome, and whether a new account took the registration's paid checkout. */
type Settled = SocialOutcome & { registered?: true };

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
 * no new account took is refunded (billing.refunds) and the page says so.
 */
export function socialAuthService(
  ctx: AppContext,
  auth: AuthService,
  deps: SocialAuthDeps,
  clients: Partial<Record<TSocialProvider, SocialClient>> = socialClients(ctx.config.socialLogin),
) {
  const signUps = socialRegistrationChecks(ctx, deps);
  const pending = ctx.cache<PendingSignIn>("social-auth-state", { maxSize: 10_000, ttlMs: SOCIAL_STATE_TTL_MS });
  const identities = identitiesRepo(ctx.db);
  const users = userAccounts(ctx.db);
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

  async function userOfIdentity(provider: TSocialProvider, subject: string): Promise<UsersTable | undefined> {
    const identity = await identities.find(provider, subject);
    return identity ? users.find(identity.company_id, identity.user_id) : undefined;
  }

  const identityRow = (provider: TSocialProvider, profile: SocialProfile, userId: string) => ({
    provider,
    subject: profile.subject,
    user_id: userId,
    email: profile.email,
    email_verified: profile.emailVerified ? 1 : 0,
    created_at: nowIso(),
  });

  /**
   * docs/product.md §4 registration, from the page's plan, consents, coupons and paid checkout and the
   * provider's name and e-mail: the same auth.register as the form, so the checkout is claimed once.
   */
  async function register(
    provider: TSocialProvider,
    profile: SocialProfile & { email: string },
    registration: TSocialRegister,
    previousToken: string | null,
  ): Promise<Settled> {
    const name = (profile.name ?? profile.email.split("@")[0] ?? profile.email).slice(0, 120);
    const result = await auth.register(
      {
        ...registration,
        name,
        email: profile.email,
        password: "",
        password_confirmation: "",
      },
      previousToken,
      {
        passwordless: true,
        withinTransaction: async (trx, user) => {
          await identitiesRepo(trx).insert(identityRow(provider, profile, user.id));
        },
      },
    );
    return { kind: "signed-in", ...result, registered: true };
  }

  /**
   * The sign-up paid, but no new account took the payment (the person already had one, or the
   * provider or a check refused): the checkout is given back and the page tells why.
   */
  async function refundUnclaimed(
    provider: TSocialProvider,
    orderRef: string,
    outcome: SocialOutcome,
  ): Promise<SocialOutcome> {
    const refund = await deps.billing.refunds.refundUnclaimed(orderRef);
    // Claimed by a company meanwhile (or never paid): nothing is given back, nothing to say.
    if (refund === "not-ours") return outcome;
    const [path, search = ""] = outcome.redirect.split("?");
    const query = new URLSearchParams(search);
    if (outcome.kind === "refused") {
      query.set("payment", "refunded");
    } else {
      query.set("social_notice", "existing_account" satisfies TSocialAuthNotice);
      query.set("provider", provider);
    }
    return { ...outcome, redirect: `${path}?${query}` };
  }

  /** Who signed in, once the answer is checked; or the reason the user reads. */
  async function finish(
    started: PendingSignIn,
    client: SocialClient,
    query: TSocialCallbackQuery,
  ): Promise<SocialProfile | TSocialAuthError> {
    if (query.error) {
      // OAuth's refusal is access_denied; LinkedIn says user_cancelled_login / user_cancelled_authorize.
      return query.error === "access_denied" || query.error.startsWith("user_cancelled") ? "denied" : "provider_failed";
    }
    const callbackUrl = new URL(redirectUri(started.provider));
    for (const [key, value] of Object.entries(query)) if (value !== undefined) callbackUrl.searchParams.set(key, value);
    try {
      return await client.finish(callbackUrl, started.checks);
    } catch (error) {
      ctx.logger.warn({ err: error, provider: started.provider }, "social sign-in failed");
      return error instanceof SocialProviderError ? error.kind : "provider_failed";
    }
  }

  /** The callback of a started sign-in whose state and browser match. */
  async function settle(
    started: PendingSignIn,
    provider: TSocialProvider,
    client: SocialClient,
    query: TSocialCallbackQuery,
    previousToken: string | null,
  ): Promise<Settled> {
    const profile = await finish(started, client, query);
    if (typeof profile === "string") return refused(profile, started.mode, provider);

    const known = await userOfIdentity(provider, profile.subject);
    if (known) return signIn(known, previousToken, profile.mfa);
    if (!profile.email) return refused("no_email", started.mode, provider);
    const email = profile.email;

    const existing = await users.findByEmail(email);
    if (existing) {
      if (!profile.emailVerified) return refused("unverified_email", started.mode, provider);
      try {
        await identities.insert(identityRow(provider, profile, existing.id));
      } catch (error) {
        // The same provider account finished twice at once: the other callback linked it already.
        if (!isUniqueViolation(error)) throw error;
        const linked = await userOfIdentity(provider, profile.subject);
        if (!linked) throw error;
        return signIn(linked, previousToken, profile.mfa);
      }
      return signIn(existing, previousToken, profile.mfa);
    }
    // Creating an account needs the consents of the registration page (docs/product.md §4).
    if (started.mode === "login" || !started.registration) return refused("no_account", "register", provider);
    try {
      return await register(provider, { ...profile, email }, started.registration, previousToken);
    } catch (error) {
      // A refused payment or coupon, or an address registered a moment ago: back to the page with why.
      const reason = signUps.refusalOf(error);
      if (reason) return refused(reason, "register", provider);
      throw error;
    }
  }

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
