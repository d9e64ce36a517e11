import { normaliseTimeZone, type TRegister } from "@app/core";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import type { UsersTable } from "../../infra/db/schema";
import { AppError, isUniqueViolation } from "../../infra/errors";
import { hashPassword, newId, nowIso, sha256 } from "../../infra/security";
import type { CheckoutClaims } from "../billing/claim";
import type { CompaniesService } from "../companies/service";
import { couponLedger } from "../coupons/service";
import { userAccounts } from "../users/service";

/**
 * What a social sign-up (features/social-auth) adds to a registration: no password (the provider signs
 * the user in), and its identity row written in the registration's transaction.
 */
export interface RegistrationExtras {
  passwordless?: boolean;
  withinTransaction?: (trx: Db, user: UsersTable) => Promise<void>;
}

/** What a registration works with: the companies, the checkout claims and the auth service's session steps. */
export interface RegistrationDeps {
  ctx: AppContext;
  companies: CompaniesService;
  claims: () => CheckoutClaims;
  users: ReturnType<typeof userAccounts>;
  startSession(user: UsersTable, db?: Db): Promise<string>;
  endSession(id: string): Promise<void>;
}

/** Registration (docs/product.md §3): a company, its admin and the admin's session, in one transaction. */
export function registrationUseCase({ ctx, companies, claims, users, startSession, endSession }: RegistrationDeps) {
  return {
    /** docs/product.md §3 registration: the company in its trial, its admin (creator), signed in. */
    async register(
      input: TRegister,
      previousToken: string | null,
      extras: RegistrationExtras = {},
    ): Promise<{ token: string; redirect: string }> {
      const email = input.email.toLowerCase();
      if (await users.findByEmail(email)) throw AppError.validation({ email: ["The email has already been taken."] });
      // docs/product.md §4: a paid checkout is checked with the card provider before anything is created.
      const paid = input.order_ref ? await claims().verify(input.order_ref, input.order_id) : null;
      const companyId = newId();
      const now = nowIso();
      // The browser's zone for the admin and the company; unknown or missing: UTC, and the sign-up goes on.
      const timezone = normaliseTimeZone(input.timezone) ?? "UTC";
      const user: UsersTable = {
        id: newId(),
        company_id: companyId,
        name: input.name,
        email,
        password_hash: extras.passwordless ? null : await hashPassword(input.password),
        role: "admin",
        creator: 1,
        avatar: null,
        terms_consent: input.terms_consent ? 1 : 0,
        age_consent: input.age_consent ? 1 : 0,
        intro_passed: 0,
        timezone,
        onboarding_flow: input.flow,
        onboarding_step: 0,
        onboarding_source: null,
        created_at: now,
      };
      let token: string;
      let lifetimeDeal = false;
      try {
        // The company, its admin and the admin's session are created together or not at all.
        token = await ctx.db.transaction().execute(async (trx) => {
          await companies.createInTrial(
            {
              id: companyId,
              name: `${input.name}'s company`,
              dashboards: input.dashboards,
              interval: input.interval,
              timezone,
            },
            trx,
          );
          // The paid plan replaces the trial; a session claimed meanwhile rolls the registration back.
          // Before the coupons, so a lifetime code among them replaces the paid plan in turn.
          if (paid) await claims().claim(trx, companyId, paid);
          // docs/product.md §4: the registration's coupons are applied as the account is created; a
          // refused code (422 on `coupon`) rolls everything back, so no account is left behind.
          const coupons = await couponLedger(trx, ctx.clock.now()).applyAtSignUp(companyId, input.coupons ?? []);
          lifetimeDeal = coupons.lifetime !== null;
          // A lifetime deal (AppSumo) uses the dashboard flow whatever the page asked (docs/product.md §2).
          await userAccounts(trx).insert({ ...user, onboarding_flow: coupons.forcedFlow ?? user.onboarding_flow });
          await extras.withinTransaction?.(trx, user);
          return startSession(user, trx);
        });
      } catch (error) {
        // Two registrations raced for one address: the loser hears "taken", and leaves nothing behind.
        if (isUniqueViolation(error)) throw AppError.validation({ email: ["The email has already been taken."] });
        throw error;
      }
      if (previousToken) await endSession(sha256(previousToken));
      if (paid) await claims().tagSubscription(companyId, paid, lifetimeDeal);
      return { token, redirect: "/intro" };
    },
  };
}
