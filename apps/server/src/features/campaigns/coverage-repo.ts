import type { Db } from "../../infra/db";

/**
 * Which domains a group's source does not cover (table domain_metric_coverage, issue 11 §2): written by
 * the snapshot jobs, read by the group page. Every query scoped to the company.
 */
export function coverageRepo(db: Db) {
  return {
    /**
     * Records the jobs' finding for one domain and provider: a hint when not covered, null when covered.
     * True when a domain that was not covered is covered now (its history is then fetched in full).
     */
    async set(
      companyId: string,
      domainId: string,
      provider: string,
      hint: string | null,
      at: string,
    ): Promise<boolean> {
      if (hint === null) {
        const removed = await db
          .deleteFrom("domain_metric_coverage")
          .where("company_id", "=", companyId)
          .where("campaign_domain_id", "=", domainId)
          .where("provider", "=", provider)
          .executeTakeFirst();
        return Number(removed.numDeletedRows) > 0;
      }
      await db
        .insertInto("domain_metric_coverage")
        .values({ company_id: companyId, campaign_domain_id: domainId, provider, hint, checked_at: at })
        .onConflict((conflict) =>
          conflict.columns(["campaign_domain_id", "provider"]).doUpdateSet({ hint, checked_at: at }),
        )
        .execute();
      return false;
    },

    /** The hints of those of the domains the provider does not cover, by domain id. */
    async hints(companyId: string, domainIds: readonly string[], provider: string): Promise<Map<string, string>> {
      if (domainIds.length === 0) return new Map();
      const rows = await db
        .selectFrom("domain_metric_coverage")
        .select(["campaign_domain_id", "hint"])
        .where("company_id", "=", companyId)
        .where("campaign_domain_id", "in", domainIds)
        .where("provider", "=", provider)
        .execute();
      return new Map(rows.map((row) => [row.campaign_domain_id, row.hint]));
    },
  };
}

export type CoverageRepo = ReturnType<typeof coverageRepo>;
