import type { Db } from "../../infra/db";
import type { PdfExportsTable } from "../../infra/db/schema";

/** PDF export rows: the only SQL of the feature, every query scoped to the company. */
export function exportsRepo(db: Db) {
  return {
    find(companyId: string, key: string): Promise<PdfExportsTable | undefined> {
      return db
        .selectFrom("pdf_exports")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("key", "=", key)
        .executeTakeFirst();
    },
    /** Inserts a pending export; false when another request already did (they then share it). */
    async insertPending(row: Omit<PdfExportsTable, "state" | "file" | "error" | "finished_at">): Promise<boolean> {
      const result = await db
        .insertInto("pdf_exports")
        .values({ ...row, state: "pending", file: null, error: null, finished_at: null })
        .onConflict((conflict) => conflict.column("key").doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async finish(
      companyId: string,
      key: string,
      outcome: { state: "ready"; file: string } | { state: "failed"; error: string },
      at: string,
    ) {
      await db
        .updateTable("pdf_exports")
        .set({
          state: outcome.state,
          file: outcome.state === "ready" ? outcome.file : null,
          error: outcome.state === "failed" ? outcome.error : null,
          finished_at: at,
        })
        .where("company_id", "=", companyId)
        .where("key", "=", key)
        .execute();
    },
    /** Exports finished before `before` (their files are removed with them). */
    listFinishedBefore(before: string, limit = 200) {
      return db
        .selectFrom("pdf_exports")
        .select(["key", "company_id", "file"])
        .where("finished_at", "is not", null)
        .where("finished_at", "<", before)
        .limit(limit)
        .execute();
    },
    async remove(companyId: string, key: string) {
      await db.deleteFrom("pdf_exports").where("company_id", "=", companyId).where("key", "=", key).execute();
    },
  };
}
