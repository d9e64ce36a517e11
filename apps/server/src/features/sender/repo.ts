import type { Db } from "../../infra/db";
import type { CompanySendersTable } from "../../infra/db/schema";

/** The company's sender row: the only SQL of the feature, keyed by (and so scoped to) the company. */
export function senderRepo(db: Db) {
  return {
    find(companyId: string): Promise<CompanySendersTable | undefined> {
      return db.selectFrom("company_senders").selectAll().where("company_id", "=", companyId).executeTakeFirst();
    },
    async replace(row: CompanySendersTable) {
      // Inside the caller's transaction when given one (the audit row's), else in one of its own.
      const write = async (trx: Db) => {
        await trx.deleteFrom("company_senders").where("company_id", "=", row.company_id).execute();
        await trx.insertInto("company_senders").values(row).execute();
      };
      await (db.isTransaction ? write(db) : db.transaction().execute(write));
    },
    async remove(companyId: string) {
      await db.deleteFrom("company_senders").where("company_id", "=", companyId).execute();
    },
    async saveChecks(companyId: string, checks: string, verified: boolean, at: string) {
      await db
        .updateTable("company_senders")
        .set({ checks, verified: verified ? 1 : 0, checked_at: at })
        .where("company_id", "=", companyId)
        .execute();
    },
  };
}
