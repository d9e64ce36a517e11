import { sql, type Updateable } from "kysely";
import type { Db } from "../../infra/db";
import type { DashboardsTable } from "../../infra/db/schema";

/** Dashboards: the only SQL of the feature; every query takes the company id. */
export function dashboardsRepo(db: Db) {
  return {
    async list(companyId: string, filter: { search?: string; active?: boolean; offset: number; limit: number }) {
      let query = db.selectFrom("dashboards").where("company_id", "=", companyId);
      if (filter.active !== undefined) query = query.where("active", "=", filter.active ? 1 : 0);
      if (filter.search) {
        // Portable case-insensitive search on both SQLite and PostgreSQL.
        const term = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        // SQLite's LIKE has no default escape character, so name it for both databases.
        query = query.where(sql<boolean>`lower(name) like ${term} escape '\\'`);
      }
      const [rows, total] = await Promise.all([
        query
          .selectAll()
          .orderBy("updated_at", "desc")
          .orderBy("id")
          .offset(filter.offset)
          .limit(filter.limit)
          .execute(),
        query.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.count) };
    },
    findById(companyId: string, id: string) {
      return db
        .selectFrom("dashboards")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .executeTakeFirst();
    },
    /** Permalinks are global (they are the shareable address); the service checks the viewer's company. */
    findByPermalink(permalink: string) {
      return db.selectFrom("dashboards").selectAll().where("permalink", "=", permalink).executeTakeFirst();
    },
    insert(row: DashboardsTable) {
      return db.insertInto("dashboards").values(row).execute();
    },
    /** A patch with nothing to set changes nothing (an UPDATE without columns is a syntax error). */
    async update(companyId: string, id: string, patch: Updateable<DashboardsTable>) {
      if (Object.values(patch).every((value) => value === undefined)) return;
      await db.updateTable("dashboards").set(patch).where("company_id", "=", companyId).where("id", "=", id).execute();
    },
    /** Sets the first embed secret unless another request already did; false when it lost that race. */
    async setEmbedSecretIfUnset(companyId: string, id: string, secret: string): Promise<boolean> {
      const result = await db
        .updateTable("dashboards")
        .set({ embed_secret: secret })
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where("embed_secret", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Takes the edit lock only if it is free, stale or already ours: one statement, so two editors cannot both win. */
    async tryLock(companyId: string, id: string, userId: string, now: string, staleBefore: string): Promise<boolean> {
      const result = await db
        .updateTable("dashboards")
        .set({ locked_by: userId, locked_at: now })
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where((eb) =>
          eb.or([eb("locked_by", "is", null), eb("locked_by", "=", userId), eb("locked_at", "<", staleBefore)]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /**
     * Saves only while nobody else holds a live lock: the condition is part of the UPDATE, so a lock
     * taken between reading and writing still wins. Returns false when another editor holds it.
     */
    async updateAsEditor(
      companyId: string,
      id: string,
      userId: string,
      staleBefore: string,
      patch: Updateable<DashboardsTable>,
    ): Promise<boolean> {
      const result = await db
        .updateTable("dashboards")
        .set(patch)
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where((eb) =>
          eb.or([eb("locked_by", "is", null), eb("locked_by", "=", userId), eb("locked_at", "<", staleBefore)]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    unlock(companyId: string, id: string, userId: string) {
      return db
        .updateTable("dashboards")
        .set({ locked_by: null, locked_at: null })
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where("locked_by", "=", userId)
        .execute();
    },
    delete(companyId: string, id: string) {
      return db.deleteFrom("dashboards").where("company_id", "=", companyId).where("id", "=", id).execute();
    },
    async countActive(companyId: string): Promise<number> {
      const row = await db
        .selectFrom("dashboards")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("company_id", "=", companyId)
        .where("active", "=", 1)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    /** How many of these source ids belong to the company (widgets may only point at their own sources). */
    async countOwnSources(companyId: string, ids: string[]): Promise<number> {
      if (ids.length === 0) return 0;
      const row = await db
        .selectFrom("sources")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("company_id", "=", companyId)
        .where("id", "in", ids)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
  };
}

export type DashboardsRepo = ReturnType<typeof dashboardsRepo>;
