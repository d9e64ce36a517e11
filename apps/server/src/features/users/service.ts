import {
  type OnboardingFlow,
  questionnaireProblem,
  ROLE_ADMIN,
  type TUser,
  type TUserCreate,
  type TUserData,
  type TUserUpdate,
} from "@app/core";
import type { Updateable } from "kysely";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import type { UsersTable } from "../../infra/db/schema";
import { AppError, isUniqueViolation } from "../../infra/errors";
import type { MailMessage } from "../../infra/mail";
import { escapeHtml } from "../../infra/mail-html";
import { hashPassword, newId, newToken, nowIso, sha256 } from "../../infra/security";
import { invited, memberRemoved, roleChanged } from "../audit/events";
import { type AuditLog, auditLog, type RecordedAudit } from "../audit/record";
import { sessionStore } from "../auth/service";
import { companyRecords } from "../companies/service";
import { presentUser } from "./presenter";
import { usersRepo } from "./repo";

export const INVITATION_DAYS = 7;
/** Invitations a company may send per window (answered 429 beyond). */
export const MAX_INVITATIONS_PER_WINDOW = 20;
export const INVITATION_WINDOW_MS = 60 * 60_000;
/** Changes of a user's e-mail one actor may attempt per window (answered 429 beyond). */
export const MAX_EMAIL_CHANGES_PER_WINDOW = 10;
export const EMAIL_CHANGE_WINDOW_MS = 60 * 60_000;
/** One answer for any address in use, whoever's it is (see docs/decisions.md). */
export const EMAIL_UNUSABLE = "This e-mail address cannot be used.";

/** The acting user, as the route's session resolved it. */
export interface Actor {
  id: string;
  companyId: string;
  roleName: string;
}

const isAdmin = (actor: Actor) => actor.roleName === ROLE_ADMIN;

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
 * An invitation's e-mail, sent after the invitation and its audit row committed (a transaction is not
 * held open over SMTP): a mail that cannot be sent undoes the invitation (`undo`, when it made rows) and
 * takes its audit row back in one transaction, then fails the request, so the log never shows an
 * invitation the admin saw fail.
 */
function invitationMails(ctx: AppContext, audit: AuditLog) {
  async function mailOrUndo(mail: MailMessage, recorded: RecordedAudit, undo?: (trx: Db) => Promise<unknown>) {
    try {
      await ctx.mailer.send(mail);
    } catch (error) {
      await ctx.db.transaction().execute(async (trx) => {
        await undo?.(trx);
        await audit.withdraw(trx, recorded);
      });
      throw error;
    }
  }
  return {
    mailOrUndo,
    /** An address registered with another company: the invitation's answer and row, and only a neutral notice. */
    async noticeRegistered(row: UsersTable, from: Inviter): Promise<TUser> {
      const recorded = await audit.record(ctx.db, invited(row));
      await mailOrUndo(registeredNotice(row.email, from), recorded);
      return presentUser(row);
    },
  };
}

/**
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
  const { mailOrUndo, noticeRegistered } = invitationMails(ctx, audit);

  /** Who the invitation comes from, as the invitee reads it: the inviter, their company, its site title. */
  async function inviterOf(actor: Actor): Promise<Inviter> {
    const [user, company] = await Promise.all([repo.find(actor.companyId, actor.id), companies.find(actor.companyId)]);
    const siteTitle = company?.site_title || ctx.config.siteTitle;
    return {
      name: user?.name ?? "A colleague",
      company: company?.name ?? "their company",
      siteTitle,
      displayName: company?.name.trim() || siteTitle,
    };
  }

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

  async function loadInCompany(actor: Actor, id: string): Promise<UsersTable> {
    const row = await repo.find(actor.companyId, id);
    if (!row) throw AppError.notFound("User not found.");
    return row;
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
     * Admin invites a team member: the user exists without a password until they follow the e-mailed link.
     * An address registered with another company gets the same answer as a new one (so inviting does not
     * tell whether an address has an account) and only a neutral notice by e-mail; no user is created.
     */
    async invite(actor: Actor, input: TUserCreate): Promise<TUser> {
      // Invitations per company in the window (shared by every process): an admin cannot mail-bomb
      // addresses or probe them in bulk.
      const limitKey = `users.invitations:${actor.companyId}`;
      if ((await ctx.rateLimits.peek(limitKey)) >= MAX_INVITATIONS_PER_WINDOW) {
        throw new AppError("too_many_requests", "Too many invitations. Please try again later.");
      }
      await ctx.rateLimits.hit(limitKey, INVITATION_WINDOW_MS);
      const email = input.email.toLowerCase();
      const existing = await repo.findByEmail(email);
      if (existing?.company_id === actor.companyId)
        throw AppError.validation({ email: ["The email has already been taken."] });
      const now = nowIso();
      const row = invitedUser(actor.companyId, input, email, now);
      const from = await inviterOf(actor);
      // Recorded alike whether or not the address has an account elsewhere: the log tells no more than the answer.
      if (existing) return noticeRegistered(row, from);
      const token = newToken();
      let recorded: RecordedAudit;
      try {
        // The user, its invitation and its audit row exist together or not at all.
        recorded = await ctx.db.transaction().execute(async (trx) => {
          await usersRepo(trx).insert(row);
          const written = await audit.record(trx, invited(row));
          await sessionStore(trx).insertInvitation({
            token_hash: sha256(token),
            user_id: row.id,
            company_id: actor.companyId,
            expires_at: new Date(Date.now() + INVITATION_DAYS * 86400_000).toISOString(),
            created_at: now,
          });
          return written;
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Registered meanwhile (a race): the same answers as above.
        const winner = await repo.findByEmail(email);
        if (winner?.company_id === actor.companyId)
          throw AppError.validation({ email: ["The email has already been taken."] });
        return noticeRegistered(row, from);
      }
      // Mailed after the commit (a transaction is not held open over SMTP); a mail that cannot be sent
      // removes the user again (its invitation goes with it), since nobody could ever set its password,
      // and its audit row in the same transaction: the log never shows an invitation the admin saw fail.
      const link = `${ctx.config.appUrl}/password/set/${token}`;
      await mailOrUndo(invitationMail(email, input.name, from, link), recorded, (trx) =>
        usersRepo(trx).delete(actor.companyId, row.id),
      );
      return presentUser(row);
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

/** The row of an invited member: no password until they follow the e-mailed link. */
function invitedUser(companyId: string, input: TUserCreate, email: string, now: string): UsersTable {
  return {
    id: newId(),
    company_id: companyId,
    name: input.name,
    email,
    password_hash: null,
    role: input.roleName,
    creator: 0,
    avatar: null,
    // The invited user gives their own consents on first sign-in (guard 2 sends them to their profile).
    terms_consent: 0,
    age_consent: 0,
    intro_passed: 0,
    timezone: "UTC",
    onboarding_flow: "dashboard",
    onboarding_step: 0,
    onboarding_source: null,
    created_at: now,
  };
}

interface Inviter {
  name: string;
  company: string;
  siteTitle: string;
  /** The mails' From name: the company, never the product (white label). */
  displayName: string;
}

/** The invitation names the inviter and their company (white label: the company's site title). */
function invitationMail(to: string, inviteeName: string, from: Inviter, link: string): MailMessage {
  const invitedBy = `${from.name} of ${from.company}`;
  return {
    to,
    fromName: from.displayName,
    subject: `${from.name} invited you to join ${from.company} on ${from.siteTitle}`,
    text: `Hello ${inviteeName},\n\n${invitedBy} invited you to join their team on ${from.siteTitle}.\nSet your password here: ${link}\n\nThe link is valid for ${INVITATION_DAYS} days.`,
    html: `<p>Hello ${escapeHtml(inviteeName)},</p><p>${escapeHtml(invitedBy)} invited you to join their team on ${escapeHtml(from.siteTitle)}.</p><p><a href="${link}">Set your password</a></p><p>The link is valid for ${INVITATION_DAYS} days.</p>`,
  };
}

/** Sent instead of an invitation to an address that already has an account: no link, nothing to act on. */
function registeredNotice(to: string, from: Inviter): MailMessage {
  const text = `${from.name} of ${from.company} tried to invite this address to their team on ${from.siteTitle}. This address already has an account, so nothing has changed. If you want to join them, ask them to invite another address.`;
  return {
    to,
    fromName: from.displayName,
    subject: `${from.name} tried to invite you to ${from.company} on ${from.siteTitle}`,
    text: `Hello,\n\n${text}`,
    html: `<p>Hello,</p><p>${escapeHtml(text)}</p>`,
  };
}

export type UsersService = ReturnType<typeof usersService>;
