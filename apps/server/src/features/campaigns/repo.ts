import { sql } from "kysely";
import type { Db } from "../../infra/db";
import type { CampaignDomainsTable, CampaignsTable, DomainMetricDaysTable } from "../../infra/db/schema";

/** A group row with its counts (the list and the group page's header). */
export type CampaignRow = CampaignsTable & { domain_count: number; open_alert_count: number };
/** A domain row with its open alerts. */
export type CampaignDomainRow = CampaignDomainsTable & { open_alert_count: number };

/** A domain and where its group's metrics come from. */
export interface DomainWithSource {
  id: string;
  company_id: string;
  campaign_id: string;
  domain: string;
  metrics_source: string;
}
/** One stored daily value. */
export type MetricDayRow = Pick<DomainMetricDaysTable, "campaign_domain_id" | "metric" | "day" | "value">;

/** Rows per insert statement: 7 parameters each, far below SQLite's limit of 32,766. */
const UPSERT_CHUNK = 1000;

/**
 * Mission Control groups and domains: the only SQL of the feature, every query scoped to the company.
 * Deleting a group or a domain relies on the foreign keys' cascades for domains, daily values and alerts.
 */
export function campaignsRepo(db: Db) {
  const domainsWithSource = (companyId: string) =>
    db
      .selectFrom("campaign_domains as d")
      .innerJoin("campaigns as c", (join) =>
        join.onRef("c.id", "=", "d.campaign_id").onRef("c.company_id", "=", "d.company_id"),
      )
      .select(["d.id", "d.company_id", "d.campaign_id", "d.domain", "c.metrics_source"])
      .where("d.company_id", "=", companyId);

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
    findDomainByHost(companyId: string, campaignId: string, domain: string) {
      return db
        .selectFrom("campaign_domains")
        .select("id")
        .where("company_id", "=", companyId)
        .where("campaign_id", "=", campaignId)
        .where("domain", "=", domain)
        .executeTakeFirst();
    },
    insertDomain(row: CampaignDomainsTable) {
      return db.insertInto("campaign_domains").values(row).execute();
    },
    async setSnoozedUntil(companyId: string, campaignId: string, id: string, until: string | null): Promise<boolean> {
      const result = await db
        .updateTable("campaign_domains")
        .set({ alerts_snoozed_until: until })
        .where("company_id", "=", companyId)
        .where("campaign_id", "=", campaignId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async deleteDomain(companyId: string, campaignId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("campaign_domains")
        .where("company_id", "=", companyId)
        .where("campaign_id", "=", campaignId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** A domain with its group's metrics source (what the backfill job needs), scoped to the company. */
    domainWithSource(companyId: string, id: string): Promise<DomainWithSource | undefined> {
      return domainsWithSource(companyId).where("d.id", "=", id).executeTakeFirst();
    },
    /** Every domain of the company with its group's metrics source (the daily snapshot). */
    companyDomainsWithSource(companyId: string): Promise<DomainWithSource[]> {
      return domainsWithSource(companyId).orderBy("d.id").execute();
    },
    /** Ids of the domains of one group (re-fetching them when the group's source changes). */
    async domainIds(companyId: string, campaignId: string): Promise<string[]> {
      const rows = await db
        .selectFrom("campaign_domains")
        .select("id")
        .where("company_id", "=", companyId)
        .where("campaign_id", "=", campaignId)
        .execute();
      return rows.map((row) => row.id);
    },
    /**
     * The companies that track at least one domain: the daily snapshot's scheduler enqueues one job per
     * company. The one query across companies, by design, and it reads nothing but their ids.
     */
    async companiesWithDomains(): Promise<string[]> {
      const rows = await db.selectFrom("campaign_domains").select("company_id").distinct().execute();
      return rows.map((row) => row.company_id);
    },
    /**
     * Stores a provider's values of one domain. An upsert on the primary key (domain, metric, day,
     * provider): fetching a day again replaces its value, so a job that runs twice leaves the same rows.
     */
    async upsertMetricDays(
      companyId: string,
      domainId: string,
      provider: string,
      values: readonly { metric: string; day: string; value: number }[],
      fetchedAt: string,
    ): Promise<void> {
      const rows = values.map((value) => ({
        company_id: companyId,
        campaign_domain_id: domainId,
        provider,
        fetched_at: fetchedAt,
        ...value,
      }));
      // Chunks keep one statement under SQLite's limit of bound parameters.
      for (let start = 0; start < rows.length; start += UPSERT_CHUNK) {
        await db
          .insertInto("domain_metric_days")
          .values(rows.slice(start, start + UPSERT_CHUNK))
          .onConflict((conflict) =>
            conflict.columns(["campaign_domain_id", "metric", "day", "provider"]).doUpdateSet((eb) => ({
              value: eb.ref("excluded.value"),
              fetched_at: eb.ref("excluded.fetched_at"),
            })),
          )
          .execute();
      }
    },
    /** Forgets some metrics of a domain from one provider (their source changed: they are fetched anew). */
    async deleteMetricDays(companyId: string, domainId: string, provider: string, metrics: readonly string[]) {
      if (metrics.length === 0) return;
      await db
        .deleteFrom("domain_metric_days")
        .where("company_id", "=", companyId)
        .where("campaign_domain_id", "=", domainId)
        .where("provider", "=", provider)
        .where("metric", "in", metrics)
        .execute();
    },
    /** The stored values of some domains from one provider, from `fromDay` on (what the changes read). */
    metricDays(
      companyId: string,
      domainIds: readonly string[],
      provider: string,
      fromDay: string,
    ): Promise<MetricDayRow[]> {
      if (domainIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom("domain_metric_days")
        .select(["campaign_domain_id", "metric", "day", "value"])
        .where("company_id", "=", companyId)
        .where("campaign_domain_id", "in", domainIds)
        .where("provider", "=", provider)
        .where("day", ">=", fromDay)
        .orderBy("day")
        .execute();
    },
  };
}

export type CampaignsRepo = ReturnType<typeof campaignsRepo>;
