import type { Db } from "../../infra/db";

/** The sessions of one user, as the profile lists them: the only SQL of the sessions feature. */
export function signedInSessionsRepo(db: Db) {
  const ofUser = (companyId: string, userId: string, now: string) =>
    db
      .selectFrom("sessions")
      .where("company_id", "=", companyId)
      .where("user_id", "=", userId)
      .where("expires_at", ">", now);
  return {
    /** The user's live sessions, most recently used first. */
    list(companyId: string, userId: string, now: string) {
      return ofUser(companyId, userId, now)
        .select(["id", "public_id", "user_agent", "ip_address", "created_at", "last_seen_at"])
        .orderBy("last_seen_at", "desc")
        .orderBy("created_at", "desc")
        .execute();
    },
    /** The token hash of the user's session with this public id; undefined when it is not theirs. */
    async findId(companyId: string, userId: string, publicId: string, now: string) {
      const row = await ofUser(companyId, userId, now)
        .select("id")
        .where("public_id", "=", publicId)
        .executeTakeFirst();
      return row?.id;
    },
  };
}
