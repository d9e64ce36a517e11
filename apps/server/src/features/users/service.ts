import type { OnboardingFlow } from "@app/core";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import type { UsersTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import { auditLog } from "../audit/record";
import { companyRecords } from "../companies/service";
import type { Actor, UsersDeps } from "./deps";
import { invitationUseCases } from "./invitations";
import { memberUseCases } from "./members";
import { usersRepo } from "./repo";

export type { Actor } from "./deps";
export { INVITATION_DAYS, INVITATION_WINDOW_MS, MAX_INVITATIONS_PER_WINDOW } from "./invitations";
export { EMAIL_CHANGE_WINDOW_MS, EMAIL_UNUSABLE, MAX_EMAIL_CHANGES_PER_WINDOW } from "./members";

/**
 * The user rows other features work with (auth signs in, registers and sets passwords), on `db` or
 * on a transaction passed as `db`: they reach users through this, never through the users repo.
 */
export function userAccounts(db: Db) {
  const repo = usersRepo(db);
  return {
    findByEmail: (email: string) => repo.findByEmail(email),
    find: (companyId: string, id: string) => repo.find(companyId, id),
    insert: (row: UsersTable) => repo.insert(row),
    setPasswordHash: (companyId: string, id: string, passwordHash: string) =>
      repo.update(companyId, id, { password_hash: passwordHash }),
    /** The company's users in the order they joined (the first is the one who registered it). */
    listByCompany: (companyId: string) => repo.listByCompany(companyId),
  };
}

/** The onboarding flow a company's plan imposes (a lifetime deal: dashboard), or null (features/coupons). */
export type ForcedFlowOf = (companyId: string) => Promise<OnboardingFlow | null>;

/**
 * The users service, assembled from its use cases, each in its own module of this folder: invitations.ts
 * (inviting a member) and members.ts (listing, reading, changing and removing members); deps.ts holds what
 * they share.
 * @param onAccountChange called after every change to a user, so cached sessions are read again.
 * @param forcedFlowOf the company's forced onboarding flow, which the intro questionnaire may not change.
 */
export function usersService(
  ctx: AppContext,
  onAccountChange: () => void = () => {},
  forcedFlowOf: ForcedFlowOf = async () => null,
) {
  const repo = usersRepo(ctx.db);
  const companies = companyRecords(ctx.db);
  const audit = auditLog(ctx);

  async function loadInCompany(actor: Actor, id: string): Promise<UsersTable> {
    const row = await repo.find(actor.companyId, id);
    if (!row) throw AppError.notFound("User not found.");
    return row;
  }
  const deps: UsersDeps = { ctx, repo, companies, audit, onAccountChange, forcedFlowOf, loadInCompany };

  return {
    ...memberUseCases(deps),
    ...invitationUseCases(deps),
  };
}

export type UsersService = ReturnType<typeof usersService>;
