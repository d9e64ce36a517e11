import type {
  TSocialAuthError,
  TSocialAuthNotice,
  TSocialCallbackQuery,
  TSocialProvider,
  TSocialRegister,
} from "@app/core";
import type { AppContext } from "../../context";
import type { UsersTable } from "../../infra/db/schema";
import { isUniqueViolation } from "../../infra/errors";
import { nowIso } from "../../infra/security";
import type { AuthService } from "../auth/service";
import { userAccounts } from "../users/service";
import { type SignInChecks, type SocialClient, type SocialProfile, SocialProviderError } from "./providers";
import type { socialRegistrationChecks } from "./registration";
import { identitiesRepo } from "./repo";
import type { SocialAuthDeps, SocialOutcome } from "./service";

export type Mode = "register" | "login";

/** A started sign-in, kept server-side (shared by every process) until the provider sends the browser back. */
export interface PendingSignIn {
  provider: TSocialProvider;
  mode: Mode;
  checks: SignInChecks;
  /** The registration page's plan, consents, coupons and paid checkout (register mode only). */
  registration: TSocialRegister | null;
}

/**
 * Signs `user` in: a fresh session, ending the one the browser had (rotation, as at login). A user with
 * a second factor gets the second step first, unless the provider says it checked one itself (`mfa`:
 * Google's ID token `amr` claim; docs/decisions.md "Two-factor sign-in with TOTP").
 */
export function socialSignIn(auth: AuthService, secondStep: NonNullable<SocialAuthDeps["secondStep"]>) {
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
export type Settled = SocialOutcome & { registered?: true };

/** What the callback's steps share with the service: its registration checks, sign-in and refusal. */
export interface SettleParts {
  signUps: ReturnType<typeof socialRegistrationChecks>;
  signIn: ReturnType<typeof socialSignIn>;
  refused(reason: TSocialAuthError, mode: Mode, provider: string): SocialOutcome;
  redirectUri(provider: TSocialProvider): string;
}

/**
 * The callback's work once its state matched: ask the provider who signed in, then sign in the
 * identity's user, link a user with the same verified e-mail or register a new company; and give back a
 * paid checkout that no new account took.
 */
export function settleSteps(
  ctx: AppContext,
  auth: AuthService,
  deps: SocialAuthDeps,
  { signUps, signIn, refused, redirectUri }: SettleParts,
) {
  const identities = identitiesRepo(ctx.db);
  const users = userAccounts(ctx.db);

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

  return { settle, refundUnclaimed };
}
