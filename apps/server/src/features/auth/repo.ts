import type { Db } from "../../infra/db";
import type { SessionsTable } from "../../infra/db/schema";
import type { SessionClient } from "../../infra/http";

/** Sessions and invitations: the only SQL of the auth feature. */
export function authRepo(db: Db) {
  return {
    insertSession(row: SessionsTable) {
      return db.insertInto("sessions").values(row).execute();
    },
    findSession(id: string) {
      return db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst();
    },
    /** Last seen now, and (when the request is known) from which browser and address. */
    touchSession(id: string, lastSeenAt: string, client?: SessionClient) {
      const seen = client ? { user_agent: client.userAgent, ip_address: client.address } : {};
      return db
        .updateTable("sessions")
        .set({ last_seen_at: lastSeenAt, ...seen })
        .where("id", "=", id)
        .execute();
    },
    updateSessionData(id: string, data: string) {
      return db.updateTable("sessions").set({ data }).where("id", "=", id).execute();
    },
    deleteSession(id: string) {
      return db.deleteFrom("sessions").where("id", "=", id).execute();
    },
    /** Every session of the user except `keepId` (the one making the change), when given. */
    deleteSessionsOfUser(companyId: string, userId: string, keepId: string | null = null) {
      let query = db.deleteFrom("sessions").where("company_id", "=", companyId).where("user_id", "=", userId);
      if (keepId) query = query.where("id", "!=", keepId);
      return query.execute();
    },
    insertInvitation(row: {
      token_hash: string;
      user_id: string;
      company_id: string;
      expires_at: string;
      created_at: string;
    }) {
      return db
        .insertInto("invitations")
        .values({ ...row, used_at: null })
        .execute();
    },
    findOpenInvitation(tokenHash: string, now: string) {
      return db
        .selectFrom("invitations")
        .selectAll()
        .where("token_hash", "=", tokenHash)
        .where("used_at", "is", null)
        .where("expires_at", ">", now)
        .executeTakeFirst();
    },
    markInvitationUsed(tokenHash: string, now: string) {
      return db.updateTable("invitations").set({ used_at: now }).where("token_hash", "=", tokenHash).execute();
    },
  };
}
