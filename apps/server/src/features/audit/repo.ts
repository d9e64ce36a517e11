import type { Db } from "../../infra/db";
import type { AuditEventsTable } from "../../infra/db/schema";

export interface AuditFilter {
  actions?: string[];
  actorId?: string;
  /** Inclusive lower and exclusive upper bound of created_at (ISO instants). */
  since?: string;
  before?: string;
}

/**
 * The audit log's only SQL: append-only. Rows are inserted (on the change's own transaction), listed and
 * counted for one company, and deleted only by age (the retention job) or together with the change they
 * recorded when that change is undone (./record.ts `withdraw`); nothing updates a row.
 */
export function auditRepo(db: Db) {
  function filtered(companyId: string, filter: AuditFilter) {
    let query = db.selectFrom("audit_events").where("company_id", "=", companyId);
    if (filter.actions) query = query.where("action", "in", filter.actions.length ? filter.actions : [""]);
    if (filter.actorId) query = query.where("actor_id", "=", filter.actorId);
    if (filter.since) query = query.where("created_at", ">=", filter.since);
    if (filter.before) query = query.where("created_at", "<", filter.before);
    return query;
  }
  return {
    async insert(row: AuditEventsTable): Promise<void> {
      await db.insertInto("audit_events").values(row).execute();
    },
    /** Newest first; the id breaks ties between rows of the same millisecond. */
    list(companyId: string, filter: AuditFilter, offset: number, limit: number): Promise<AuditEventsTable[]> {
      return filtered(companyId, filter)
        .selectAll()
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .offset(offset)
        .limit(limit)
        .execute();
    },
    async count(companyId: string, filter: AuditFilter): Promise<number> {
      const row = await filtered(companyId, filter)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** One row of the company's, taken back in the transaction that undoes the change it recorded. */
    async deleteOne(companyId: string, id: string): Promise<void> {
      await db.deleteFrom("audit_events").where("company_id", "=", companyId).where("id", "=", id).execute();
    },
    /** Retention: every company's rows older than `cutoff`; answers how many went. */
    async deleteOlderThan(cutoff: string): Promise<number> {
      const result = await db.deleteFrom("audit_events").where("created_at", "<", cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
