import type { TUser, TUserCreate } from "@app/core";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import type { UsersTable } from "../../infra/db/schema";
import { AppError, isUniqueViolation } from "../../infra/errors";
import type { MailMessage } from "../../infra/mail";
import { escapeHtml } from "../../infra/mail-html";
import { newId, newToken, nowIso, sha256 } from "../../infra/security";
import { invited } from "../audit/events";
import type { AuditLog, RecordedAudit } from "../audit/record";
import { sessionStore } from "../auth/service";
import type { Actor, UsersDeps } from "./deps";
import { presentUser } from "./presenter";
import { usersRepo } from "./repo";

export const INVITATION_DAYS = 7;
/** Invitations a company may send per window (answered 429 beyond). */
export const MAX_INVITATIONS_PER_WINDOW = 20;
export const INVITATION_WINDOW_MS = 60 * 60_000;

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

/** Inviting a team member (admins): the invited user, its invitation and the e-mail that carries its link. */
export function invitationUseCases({ ctx, repo, companies, audit }: UsersDeps) {
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

  return {
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
