import { questionnaireProblem, ROLE_ADMIN, type TUser, type TUserData, type TUserUpdate } from "@app/core";
import type { Updateable } from "kysely";
import type { UsersTable } from "../../infra/db/schema";
import { AppError, isUniqueViolation } from "../../infra/errors";
import { hashPassword } from "../../infra/security";
import { memberRemoved, roleChanged } from "../audit/events";
import { sessionStore } from "../auth/service";
import { type Actor, isAdmin, type UsersDeps } from "./deps";
import { presentUser } from "./presenter";
import { usersRepo } from "./repo";

/** Changes of a user's e-mail one actor may attempt per window (answered 429 beyond). */
export const MAX_EMAIL_CHANGES_PER_WINDOW = 10;
export const EMAIL_CHANGE_WINDOW_MS = 60 * 60_000;
/** One answer for any address in use, whoever's it is (see docs/decisions.md). */
export const EMAIL_UNUSABLE = "This e-mail address cannot be used.";

/** The company's members: listing and reading them, their profile and role, their intro data, removal. */
export function memberUseCases({ ctx, repo, audit, onAccountChange, forcedFlowOf, loadInCompany }: UsersDeps) {
  /**
   * A new address for a user must be free. Taken by a colleague or by a stranger in another company,
   * the answer is the same, and one actor gets only so many answers an hour, so this form cannot be
   * used to find out in bulk who has an account.
   */
  async function assertEmailUsable(actor: Actor, email: string, userId: string) {
    // E-mail changes per acting user in the window (shared by every process): each answer tells
    // whether an address is in use.
    const key = `users.email-change:${actor.id}`;
    if ((await ctx.rateLimits.peek(key)) >= MAX_EMAIL_CHANGES_PER_WINDOW) {
      throw new AppError("too_many_requests", "Too many e-mail changes. Please try again later.");
    }
    await ctx.rateLimits.hit(key, EMAIL_CHANGE_WINDOW_MS);
    const existing = await repo.findByEmail(email);
    if (existing && existing.id !== userId) throw AppError.validation({ email: [EMAIL_UNUSABLE] });
  }

  return {
    async list(actor: Actor): Promise<TUser[]> {
      return (await repo.listByCompany(actor.companyId)).map(presentUser);
    },

    async get(actor: Actor, id: string): Promise<TUser> {
      if (!isAdmin(actor) && actor.id !== id) throw AppError.forbidden();
      return presentUser(await loadInCompany(actor, id));
    },

    /**
     * Admins update anyone in their company; everybody may update their own profile but not their role.
     * A new password or e-mail ends the user's other sessions (a thief's among them); the session
     * making the change (`currentSessionId`) stays signed in.
     */
    async update(actor: Actor, id: string, input: TUserUpdate, currentSessionId: string | null = null): Promise<TUser> {
      const self = actor.id === id;
      if (!isAdmin(actor) && !self) throw AppError.forbidden();
      const row = await loadInCompany(actor, id);
      if (input.roleName !== undefined && input.roleName !== row.role) {
        if (!isAdmin(actor)) throw AppError.forbidden("Only an admin can change roles.");
        if (row.role === ROLE_ADMIN && Number((await repo.countAdmins(actor.companyId)).count) <= 1) {
          throw AppError.validation({ roleName: ["The company needs at least one admin."] });
        }
      }
      if (
        !self &&
        (input.password !== undefined || input.terms_consent !== undefined || input.age_consent !== undefined)
      ) {
        throw AppError.forbidden("Only the user can change their password and consents.");
      }
      if (input.email !== undefined && input.email.toLowerCase() !== row.email)
        await assertEmailUsable(actor, input.email.toLowerCase(), id);
      const patch: Updateable<UsersTable> = {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.email !== undefined && { email: input.email.toLowerCase() }),
        ...(input.roleName !== undefined && { role: input.roleName }),
        ...(input.timezone !== undefined && { timezone: input.timezone }),
        ...(input.terms_consent !== undefined && { terms_consent: input.terms_consent ? 1 : 0 }),
        ...(input.age_consent !== undefined && { age_consent: input.age_consent ? 1 : 0 }),
        ...(input.password !== undefined && { password_hash: await hashPassword(input.password) }),
      };
      const credentialsChanged =
        input.password !== undefined || (input.email !== undefined && input.email.toLowerCase() !== row.email);
      try {
        // New credentials and the end of the other sessions: both or neither.
        await ctx.db.transaction().execute(async (trx) => {
          if (Object.keys(patch).length > 0) await usersRepo(trx).update(actor.companyId, id, patch);
          if (patch.role !== undefined && patch.role !== row.role)
            await audit.record(trx, roleChanged(row, patch.role));
          if (credentialsChanged)
            await sessionStore(trx).deleteSessionsOfUser(actor.companyId, id, self ? currentSessionId : null);
        });
      } catch (error) {
        // Taken meanwhile (a race with a registration or invitation): the same answer as above.
        if (isUniqueViolation(error) && patch.email !== undefined)
          throw AppError.validation({ email: [EMAIL_UNUSABLE] });
        throw error;
      }
      // Also drops the cached sessions, so an ended session is refused at its very next request.
      onAccountChange();
      return presentUser(await loadInCompany(actor, id));
    },

    /** "Submit other data": intro and onboarding progress of the acting user, and the intro's questionnaire. */
    async submitData(actor: Actor, input: TUserData): Promise<TUser> {
      const row = await loadInCompany(actor, actor.id);
      const patch: Updateable<UsersTable> = {};
      if (input.onboarding_source !== undefined) {
        const problem = questionnaireProblem({
          source: input.onboarding_source,
          forcedFlow: await forcedFlowOf(actor.companyId),
          introPassed: row.intro_passed === 1,
          savedSource: row.onboarding_source,
        });
        // Refused before anything is written: the intro and its step are saved with the answer or not at all.
        if (problem !== null) throw AppError.validation({ onboarding_source: [problem] });
        patch.onboarding_source = input.onboarding_source;
      }
      if (input.intro_passed) patch.intro_passed = 1;
      // Onboarding never goes backwards once saved (docs/product.md §4).
      if (input.onboarding !== undefined && input.onboarding > row.onboarding_step)
        patch.onboarding_step = input.onboarding;
      if (Object.keys(patch).length > 0) await repo.update(actor.companyId, actor.id, patch);
      onAccountChange();
      return presentUser(await loadInCompany(actor, actor.id));
    },

    async remove(actor: Actor, id: string): Promise<void> {
      if (!isAdmin(actor)) throw AppError.forbidden();
      if (actor.id === id) throw AppError.validation({ general: ["You cannot delete your own account here."] });
      const row = await loadInCompany(actor, id);
      await audit.within(ctx.db, memberRemoved(row), (trx) => usersRepo(trx).delete(actor.companyId, id));
      onAccountChange();
    },
  };
}
