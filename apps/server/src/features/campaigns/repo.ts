import { sql } from "kysely";
import type { Db } from "../../infra/db";
import type { CampaignDomainsTable, CampaignsTable } from "../../infra/db/schema";
import { domainWrites } from "./domain-writes-repo";
import { metricDaysRepo } from "./metric-days-repo";

export type { DomainWithSource, MetricDayRow } from "./metric-days-repo";

/** A group row with its counts (the list and the group page's header). */
export type CampaignRow = CampaignsTable & { domain_count: number; open_alert_count: number };
/** A domain row with its open alerts. */
export type CampaignDomainRow = CampaignDomainsTable & { open_alert_count: number };

/**
 * Mission Control groups and domains: the only SQL of the feature, every query scoped to the company.
 * Deleting a group or a domain relies on the foreign keys' cascades for domains, daily values and alerts.
 * A domain found by host, added, snoozed or removed is domain-writes-repo.ts; what the metric jobs read
 * and write is metric-days-repo.ts.
 */
export function campaignsRepo(db: Db) {
  /**
   * Open alerts per domain that count: a snoozed domain's alerts are hidden (docs/product.md §1) until the instant
   * stored; ISO instants of one format compare as text on both databases.
   */
  const openAlerts = (companyId: string, now: string) =>
    db
      .selectFrom("campaign_alerts as a")
      .innerJoin("campaign_domains as d", (join) =>
        join.onRef("d.id", "=", "a.campaign_domain_id").onRef("d.company_id", "=", "a.company_id"),
      )
      .where("a.company_id", "=", companyId)
      .where("a.state", "=", "open")
      .where((eb) => eb.or([eb("d.alerts_snoozed_until", "is", null), eb("d.alerts_snoozed_until", "<=", now)]));

  const withCounts = (companyId: string, now: string) =>
    db
      .selectFrom("campaigns as c")
      .selectAll("c")
      .select((eb) => [
        eb
          .selectFrom("campaign_domains as d")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .whereRef("d.campaign_id", "=", "c.id")
          .where("d.company_id", "=", companyId)
          .as("domain_count"),
        openAlerts(companyId, now)
          .select((inner) => inner.fn.countAll<number>().as("n"))
          // Correlated with the outer query, which this builder (made apart from it) cannot name by type.
          .where("d.campaign_id", "=", sql.ref<string>("c.id"))
          .as("open_alert_count"),
      ])
      .where("c.company_id", "=", companyId);

  const counted = <R extends { domain_count: unknown; open_alert_count: unknown }>(row: R) => ({
    ...row,
    domain_count: Number(row.domain_count ?? 0),
    open_alert_count: Number(row.open_alert_count ?? 0),
  });

  const domainsWithAlerts = (companyId: string, campaignId: string, now: string) =>
    db
      .selectFrom("campaign_domains as cd")
      .selectAll("cd")
      .select(() => [
        openAlerts(companyId, now)
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .where("d.id", "=", sql.ref<string>("cd.id"))
          .as("open_alert_count"),
      ])
      .where("cd.company_id", "=", companyId)
      .where("cd.campaign_id", "=", campaignId);

  const alerted = <R extends { open_alert_count: unknown }>(row: R) => ({
    ...row,
    open_alert_count: Number(row.open_alert_count ?? 0),
  });

  return {
    ...metricDaysRepo(db),
    ...domainWrites(db),
    async list(companyId: string, now: string): Promise<CampaignRow[]> {
      // By name regardless of capitals, the same on both databases (their default collations differ).
      const rows = await withCounts(companyId, now).orderBy(sql`lower(c.name)`).orderBy("c.id").execute();
      return rows.map(counted);
    },
    async find(companyId: string, id: string, now: string): Promise<CampaignRow | undefined> {
      const row = await withCounts(companyId, now).where("c.id", "=", id).executeTakeFirst();
      return row && counted(row);
    },
    /** The company's group whose name matches `name` ignoring case, other than `exceptId`. */
    findByName(companyId: string, name: string, exceptId: string | null) {
      let query = db
        .selectFrom("campaigns")
        .select("id")
        .where("company_id", "=", companyId)
        .where((eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()));
      if (exceptId) query = query.where("id", "!=", exceptId);
      return query.executeTakeFirst();
    },
    async count(companyId: string): Promise<number> {
      const row = await db
        .selectFrom("campaigns")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("company_id", "=", companyId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    insert(row: CampaignsTable) {
      return db.insertInto("campaigns").values(row).execute();
    },
    /** Renames the group and, when given, changes where its metrics come from. */
    async update(
      companyId: string,
      id: string,
      patch: { name: string; metrics_source?: string },
      updatedAt: string,
    ): Promise<boolean> {
      const result = await db
        .updateTable("campaigns")
        .set({ ...patch, updated_at: updatedAt })
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async delete(companyId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("campaigns")
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async domains(companyId: string, campaignId: string, now: string): Promise<CampaignDomainRow[]> {
      const rows = await domainsWithAlerts(companyId, campaignId, now).orderBy("cd.domain").execute();
      return rows.map(alerted);
    },
    async findDomain(
      companyId: string,
      campaignId: string,
      id: string,
      now: string,
    ): Promise<CampaignDomainRow | undefined> {
      const row = await domainsWithAlerts(companyId, campaignId, now).where("cd.id", "=", id).executeTakeFirst();
      return row && alerted(row);
    },
  };
}

export type CampaignsRepo = ReturnType<typeof campaignsRepo>;
