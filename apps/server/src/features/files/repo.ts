import type { Db } from "../../infra/db";
import type { FilesTable } from "../../infra/db/schema";

/** Uploaded files: every query is scoped to the company that owns them. */
export function filesRepo(db: Db) {
  return {
    insert(row: FilesTable) {
      return db.insertInto("files").values(row).execute();
    },
    find(companyId: string, id: string) {
      return db
        .selectFrom("files")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .executeTakeFirst();
    },
    findByPath(companyId: string, kind: string, path: string) {
      return db
        .selectFrom("files")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("kind", "=", kind)
        .where("path", "=", path)
        .executeTakeFirst();
    },
    delete(companyId: string, id: string) {
      return db.deleteFrom("files").where("company_id", "=", companyId).where("id", "=", id).execute();
    },
  };
}
