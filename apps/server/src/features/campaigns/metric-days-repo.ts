import type { Db } from "../../infra/db";
import type { DomainMetricDaysTable } from "../../infra/db/schema";

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
 * What Mission Control's metric jobs read and write (metrics.ts): the domains with their group's source,
 * the companies tracking any, and the stored daily values. Every query scoped to the company but the
 * one that lists the companies.
 */
export function metricDaysRepo(db: Db) {
  const domainsWithSource = (companyId: string) =>
    db
      .selectFrom("campaign_domains as d")
      .innerJoin("campaigns as c", (join) =>
        join.onRef("c.id", "=", "d.campaign_id").onRef("c.company_id", "=", "d.company_id"),
      )
      .select(["d.id", "d.company_id", "d.campaign_id", "d.domain", "c.metrics_source"])
      .where("d.company_id", "=", companyId);

  return {
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
