import type { Updateable } from "kysely";
import type { Db } from "../../infra/db";
import type { UsersTable } from "../../infra/db/schema";

/** Users: every query but the login look-ups is scoped to a company. */
export function usersRepo(db: Db) {
  return {
    listByCompany(companyId: string) {
      return db.selectFrom("users").selectAll().where("company_id", "=", companyId).orderBy("created_at").execute();
    },
    find(companyId: string, id: string) {
      return db
        .selectFrom("users")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .executeTakeFirst();
    },
    /** Global look-up: e-mail addresses are unique across companies (login). */
    findByEmail(email: string) {
      return db.selectFrom("users").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
    },
    insert(row: UsersTable) {
      return db.insertInto("users").values(row).execute();
    },
    /** A patch with nothing to set changes nothing (an UPDATE without columns is a syntax error). */
    async update(companyId: string, id: string, patch: Updateable<UsersTable>) {
      if (Object.values(patch).every((value) => value === undefined)) return;
      await db.updateTable("users").set(patch).where("company_id", "=", companyId).where("id", "=", id).execute();
    },
    delete(companyId: string, id: string) {
      return db.deleteFrom("users").where("company_id", "=", companyId).where("id", "=", id).execute();
    },
    countAdmins(companyId: string) {
      return db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("company_id", "=", companyId)
        .where("role", "=", "admin")
        .executeTakeFirstOrThrow();
    },
  };
}
