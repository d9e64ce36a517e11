import type { Db } from "../../infra/db";

/**
 * Which domains a group's source does not cover (table domain_metric_coverage, issue 11 §2): written by
 * the snapshot jobs, read by the group page. Every query scoped to the company.
 */
export function coverageRepo(db: Db) {
  return {
    /**
     * Records the jobs' finding for one domain and provider: a hint when not covered, else the plan
     * that covers it. Answers what changed: `covered` when it was not covered before (its history is
     * then fetched in full), `replanned` when another plan covered it (its values are fetched anew).
     */
    async set(
      companyId: string,
      domainId: string,
      provider: string,
      found: { hint: string | null; plan: string | null },
      at: string,
    ): Promise<"covered" | "replanned" | null> {
      const before = await db
        .selectFrom("domain_metric_coverage")
        .select(["hint", "plan"])
        .where("company_id", "=", companyId)
        .where("campaign_domain_id", "=", domainId)
        .where("provider", "=", provider)
        .executeTakeFirst();
      await db
        .insertInto("domain_metric_coverage")
        .values({ company_id: companyId, campaign_domain_id: domainId, provider, ...found, checked_at: at })
        .onConflict((conflict) =>
          conflict.columns(["campaign_domain_id", "provider"]).doUpdateSet({ ...found, checked_at: at }),
        )
        .execute();
      if (found.hint !== null) return null;
      if (before?.hint) return "covered";
      // A plan recorded before and different now; no row yet is a first look, not a change.
      return before?.plan && found.plan !== null && before.plan !== found.plan ? "replanned" : null;
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
        .where("hint", "is not", null)
        .execute();
      return new Map(rows.map((row) => [row.campaign_domain_id, row.hint ?? ""]));
    },
  };
}

export type CoverageRepo = ReturnType<typeof coverageRepo>;
