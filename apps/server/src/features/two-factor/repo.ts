import type { Db } from "../../infra/db";
import type { PendingSignInsTable, UserTwoFactorTable } from "../../infra/db/schema";

/** Two-factor secrets, recovery codes, pending sign-ins and the company's requirement: the feature's only SQL. */
export function twoFactorRepo(db: Db) {
  return {
    find(companyId: string, userId: string) {
      return db
        .selectFrom("user_two_factor")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
    },
    /** A new set-up replaces one not confirmed yet; an enabled secret is never touched here. */
    async replaceUnconfirmed(row: UserTwoFactorTable) {
      await db
        .deleteFrom("user_two_factor")
        .where("company_id", "=", row.company_id)
        .where("user_id", "=", row.user_id)
        .where("enabled_at", "is", null)
        .execute();
      await db.insertInto("user_two_factor").values(row).execute();
    },
    /**
     * Accepts the code of time step `step`: one conditional UPDATE, so of two requests with the same
     * code (or an older one) only one raises the step and passes, on SQLite and PostgreSQL alike.
     * `enabling` confirms a set-up (its first code); otherwise the secret must be on already.
     */
    async useStep(companyId: string, userId: string, step: number, enabling: string | null = null) {
      let query = db
        .updateTable("user_two_factor")
        .set(enabling ? { last_used_step: step, enabled_at: enabling } : { last_used_step: step })
        .where("company_id", "=", companyId)
        .where("user_id", "=", userId)
        .where("last_used_step", "<", step);
      query = enabling ? query.where("enabled_at", "is", null) : query.where("enabled_at", "is not", null);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async removeRecoveryCodes(companyId: string, userId: string) {
      await db
        .deleteFrom("user_recovery_codes")
        .where("company_id", "=", companyId)
        .where("user_id", "=", userId)
        .execute();
    },
    /** The authenticator; its recovery codes too unless `keepRecoveryCodes` (a passkey still needs them). */
    async remove(companyId: string, userId: string, keepRecoveryCodes = false) {
      if (!keepRecoveryCodes) {
        await db
          .deleteFrom("user_recovery_codes")
          .where("company_id", "=", companyId)
          .where("user_id", "=", userId)
          .execute();
      }
      await db
        .deleteFrom("user_two_factor")
        .where("company_id", "=", companyId)
        .where("user_id", "=", userId)
        .execute();
    },
    async replaceRecoveryCodes(companyId: string, userId: string, hashes: readonly string[], now: string) {
      await db
        .deleteFrom("user_recovery_codes")
        .where("company_id", "=", companyId)
        .where("user_id", "=", userId)
        .execute();
      await db
        .insertInto("user_recovery_codes")
        .values(
          hashes.map((code_hash) => ({
            user_id: userId,
            company_id: companyId,
            code_hash,
            used_at: null,
            created_at: now,
          })),
        )
        .execute();
    },
    /** Spends a recovery code: true for the one request that marked it used. */
    async useRecoveryCode(companyId: string, userId: string, hash: string, now: string) {
      const result = await db
        .updateTable("user_recovery_codes")
        .set({ used_at: now })
        .where("company_id", "=", companyId)
        .where("user_id", "=", userId)
        .where("code_hash", "=", hash)
        .where("used_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async recoveryCodesLeft(companyId: string, userId: string) {
      const row = await db
        .selectFrom("user_recovery_codes")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("company_id", "=", companyId)
        .where("user_id", "=", userId)
        .where("used_at", "is", null)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    insertPending(row: PendingSignInsTable) {
      return db.insertInto("pending_sign_ins").values(row).execute();
    },
    findPending(id: string) {
      return db.selectFrom("pending_sign_ins").selectAll().where("id", "=", id).executeTakeFirst();
    },
    /** Ends a pending sign-in: true for the one request that ended it (a completion, never two). */
    async deletePending(id: string) {
      const result = await db.deleteFrom("pending_sign_ins").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    /** Counts a wrong code against the pending sign-in; answers the failures so far. */
    async countFailure(id: string) {
      await db
        .updateTable("pending_sign_ins")
        .set((eb) => ({ failures: eb("failures", "+", 1) }))
        .where("id", "=", id)
        .execute();
      const row = await db.selectFrom("pending_sign_ins").select("failures").where("id", "=", id).executeTakeFirst();
      return row?.failures ?? Number.POSITIVE_INFINITY;
    },
    deleteExpiredPending(now: string) {
      return db.deleteFrom("pending_sign_ins").where("expires_at", "<=", now).execute();
    },
    async setCompanyRequirement(companyId: string, required: boolean) {
      await db
        .updateTable("companies")
        .set({ require_two_factor: required ? 1 : 0 })
        .where("id", "=", companyId)
        .execute();
    },
  };
}

export type TwoFactorRepo = ReturnType<typeof twoFactorRepo>;
