import { type AuditAction, allowedDetails } from "@app/core";
import type { AppContext } from "../../context";
import type { Db } from "../../infra/db";
import type { AuditEventsTable } from "../../infra/db/schema";
import { newId } from "../../infra/security";
import { auditRepo } from "./repo";
import { type AuditActor, auditRequest } from "./request-context";

export type { AuditActor } from "./request-context";

/** A written row, as `withdraw` needs it. */
export interface RecordedAudit {
  id: string;
  companyId: string;
  action: string;
}

/** One change to record (the action's words and allowed detail keys are in core's AUDIT_ACTIONS). */
export interface AuditEvent {
  action: AuditAction;
  companyId: string;
  /** Who acted. Left out: the request's signed-in member (none outside a request); null: the system. */
  actor?: AuditActor | null;
  target?: { type: string; id?: string | null; label?: string | null };
  /** Only the keys the action allows are kept; anything else (a password, a token) is dropped. */
  details?: Record<string, unknown>;
}

let sequence = 0;

/**
 * Row ids that sort as they were written: the time, then a per-process counter, then randomness. Rows of
 * the same millisecond (a sign-in and the change right after it) keep their order in "newest first".
 */
function sortableId(at: Date): string {
  sequence = (sequence + 1) % 36 ** 4;
  return `${at.getTime().toString(36).padStart(9, "0")}${sequence.toString(36).padStart(4, "0")}${newId(3)}`;
}

/** Changes made at Stripe (its billing portal), told by its webhooks: no member of ours acted. */
export const STRIPE_ACTOR: AuditActor = { id: null, name: "Stripe", email: "" };

/** A member row as an audit actor. */
export const actorOfUser = (user: { id: string; name: string; email: string }): AuditActor => ({
  id: user.id,
  name: user.name,
  email: user.email,
});

/**
 * Writes audit rows on the change's own transaction, so the change and its record commit together or not
 * at all (docs/decisions.md, "The company audit log"), and tells the server log once the row is committed.
 * Features call `within(db, event, change)` around a change, or `record(trx, event)` inside a transaction
 * they already hold.
 */
export function auditLog(ctx: Pick<AppContext, "clock" | "logger">) {
  function rowOf(event: AuditEvent): AuditEventsTable {
    const at = ctx.clock.now();
    const request = auditRequest();
    const actor = event.actor === undefined ? (request?.actor ?? null) : event.actor;
    return {
      id: sortableId(at),
      company_id: event.companyId,
      actor_id: actor?.id ?? null,
      actor_name: actor?.name.slice(0, 255) ?? null,
      actor_email: actor?.email ? actor.email.slice(0, 255) : null,
      action: event.action,
      target_type: event.target?.type ?? null,
      target_id: event.target?.id ?? null,
      target_label: event.target?.label?.slice(0, 255) ?? null,
      details: JSON.stringify(allowedDetails(event.action, event.details)),
      ip: request?.ip?.slice(0, 64) ?? null,
      user_agent: request?.userAgent?.slice(0, 512) ?? null,
      created_at: at.toISOString(),
    };
  }

  /** The operators' structured line: the same facts as the row, never more (no details, no user agent). */
  function logLine(row: AuditEventsTable): void {
    ctx.logger.info(
      {
        audit: {
          action: row.action,
          company: row.company_id,
          actor: row.actor_id,
          target: row.target_type ? `${row.target_type}:${row.target_id ?? ""}` : null,
          ip: row.ip,
        },
      },
      "audit event",
    );
  }

  async function insert(db: Db, event: AuditEvent): Promise<AuditEventsTable> {
    const row = rowOf(event);
    await auditRepo(db).insert(row);
    return row;
  }

  return {
    /**
     * Records `event` on `db`: the change's transaction, or the database itself for an event that changes
     * nothing else (a failed sign-in). Its log line is written at once.
     */
    async record(db: Db, event: AuditEvent): Promise<RecordedAudit> {
      const row = await insert(db, event);
      logLine(row);
      return { id: row.id, companyId: row.company_id, action: row.action };
    },

    /**
     * Takes back `recorded` on `trx`, the transaction that undoes the change it recorded: a change
     * committed first and completed outside the database afterwards (an invitation and its e-mail, which
     * is not sent while a transaction is held open) leaves no row when it is rolled back. The operators'
     * log, already told, is told it was withdrawn.
     */
    async withdraw(trx: Db, recorded: RecordedAudit): Promise<void> {
      await auditRepo(trx).deleteOne(recorded.companyId, recorded.id);
      ctx.logger.info(
        { audit: { withdrawn: recorded.id, action: recorded.action, company: recorded.companyId } },
        "audit event withdrawn",
      );
    },

    /**
     * For a service that hands its own change a callback inside the change's transaction (companies'
     * setState `within`): records `event` there and lets the change go on.
     */
    alongside(event: AuditEvent): (trx: Db) => Promise<true> {
      return async (trx) => {
        logLine(await insert(trx, event));
        return true;
      };
    },

    /**
     * Runs `change` and records `event` (or what `event` makes of the change's result) in one transaction;
     * inside one already (`db` is a transaction), in that one. The log line follows the commit.
     */
    async within<T>(
      db: Db,
      event: AuditEvent | null | ((result: T) => AuditEvent | null),
      change: (trx: Db) => Promise<T>,
    ): Promise<T> {
      const run = async (trx: Db) => {
        const result = await change(trx);
        const made = typeof event === "function" ? event(result) : event;
        return { result, row: made ? await insert(trx, made) : null };
      };
      const { result, row } = db.isTransaction ? await run(db) : await db.transaction().execute(run);
      if (row) logLine(row);
      return result;
    },
  };
}

export type AuditLog = ReturnType<typeof auditLog>;

/** A session started for `user` (password, invitation, registration or social sign-in): they signed in. */
export const signedIn = (user: { id: string; company_id: string; name: string; email: string }): AuditEvent => ({
  action: "auth.sign_in",
  companyId: user.company_id,
  actor: actorOfUser(user),
  target: { type: "user", id: user.id, label: user.email },
});

/**
 * A wrong password for an existing member: recorded in that member's company only, with no actor (whoever
 * typed it is not known to be the member). An address nobody uses is recorded nowhere, so the log never
 * tells one company about another's attempts.
 */
export const signInRefused = (user: { id: string; company_id: string; email: string }): AuditEvent => ({
  action: "auth.sign_in_failed",
  companyId: user.company_id,
  actor: null,
  target: { type: "user", id: user.id, label: user.email },
  details: { email: user.email },
});
