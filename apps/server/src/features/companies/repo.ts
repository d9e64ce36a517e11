import type { Updateable } from "kysely";
import type { Db } from "../../infra/db";
import type { CompaniesTable } from "../../infra/db/schema";

/** Companies: the id is always the session's company. */
export function companiesRepo(db: Db) {
  return {
    find(companyId: string) {
      return db.selectFrom("companies").selectAll().where("id", "=", companyId).executeTakeFirst();
    },
    /** The company whose custom domain this is (verified or not); domains are stored in lower case. */
    findByDomain(domain: string) {
      return db.selectFrom("companies").selectAll().where("domain_cname", "=", domain).executeTakeFirst();
    },
    insert(row: CompaniesTable) {
      return db.insertInto("companies").values(row).execute();
    },
    /** A patch with nothing to set changes nothing (an UPDATE without columns is a syntax error). */
    async update(companyId: string, patch: Updateable<CompaniesTable>) {
      if (Object.values(patch).every((value) => value === undefined)) return;
      await db.updateTable("companies").set(patch).where("id", "=", companyId).execute();
    },
    delete(companyId: string) {
      return db.deleteFrom("companies").where("id", "=", companyId).execute();
    },
    count() {
      return db
        .selectFrom("companies")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .executeTakeFirstOrThrow();
    },
  };
}
