import type { Db } from "../../infra/db";
import type { PasskeysTable } from "../../infra/db/schema";

/**
 * Passkeys and their ceremonies' challenges: the only SQL of the passkeys feature. A user's passkeys are
 * read and changed scoped to their company; a sign-in finds a passkey by its credential id before anyone
 * is signed in (as a login finds a user by e-mail), and the company comes with the row.
 */
export function passkeysRepo(db: Db) {
  return {
    listOfUser(companyId: string, userId: string) {
      return db
        .selectFrom("passkeys")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("user_id", "=", userId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },
    find(companyId: string, userId: string, id: string) {
      return db
        .selectFrom("passkeys")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("user_id", "=", userId)
        .where("id", "=", id)
        .executeTakeFirst();
    },
    findByCredentialId(credentialId: string) {
      return db.selectFrom("passkeys").selectAll().where("credential_id", "=", credentialId).executeTakeFirst();
    },
    /** The user's passkey with this credential id, or undefined (another user's is not theirs). */
    findOfUserByCredentialId(userId: string, credentialId: string) {
      return db
        .selectFrom("passkeys")
        .selectAll()
        .where("user_id", "=", userId)
        .where("credential_id", "=", credentialId)
        .executeTakeFirst();
    },
    async countOfUser(userId: string): Promise<number> {
      const row = await db
        .selectFrom("passkeys")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    insert(row: PasskeysTable) {
      return db.insertInto("passkeys").values(row).execute();
    },
    async rename(companyId: string, userId: string, id: string, name: string): Promise<boolean> {
      const result = await db
        .updateTable("passkeys")
        .set({ name })
        .where("company_id", "=", companyId)
        .where("user_id", "=", userId)
        .where("id", "=", id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    /** Every passkey of the user (the operator's reset of their second factors); how many went. */
    async deleteAllOfUser(companyId: string, userId: string): Promise<number> {
      const result = await db
        .deleteFrom("passkeys")
        .where("company_id", "=", companyId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async delete(companyId: string, userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("passkeys")
        .where("company_id", "=", companyId)
        .where("user_id", "=", userId)
        .where("id", "=", id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    /**
     * Records a sign-in's counter, only while it still moves forward: of two sign-ins racing with one
     * signature (a replay), one updates the row and the other finds nothing to update. An authenticator
     * that keeps no counter answers 0 each time, which matches a stored 0.
     */
    async recordUse(id: string, previousCounter: number, counter: number, usedAt: string): Promise<boolean> {
      const result = await db
        .updateTable("passkeys")
        .set({ counter, last_used_at: usedAt })
        .where("id", "=", id)
        .where("counter", "=", previousCounter)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
    insertChallenge(row: { challenge: string; purpose: string; user_id: string | null; expires_at: string }) {
      return db.insertInto("passkey_challenges").values(row).execute();
    },
    /**
     * Takes a challenge once: the request that deletes the row may use it, any other finds it gone.
     * `userId` null: a challenge made for nobody in particular (a passwordless sign-in).
     */
    async takeChallenge(challenge: string, purpose: string, userId: string | null, now: string): Promise<boolean> {
      let query = db
        .deleteFrom("passkey_challenges")
        .where("challenge", "=", challenge)
        .where("purpose", "=", purpose)
        .where("expires_at", ">", now);
      query = userId === null ? query.where("user_id", "is", null) : query.where("user_id", "=", userId);
      const result = await query.executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    deleteExpiredChallenges(now: string) {
      return db.deleteFrom("passkey_challenges").where("expires_at", "<=", now).execute();
    },
  };
}

export type PasskeysRepo = ReturnType<typeof passkeysRepo>;
