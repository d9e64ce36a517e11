import type { Db } from "../../infra/db";

/**
 * Which domains a group's source does not cover (table domain_metric_coverage; docs/decisions.md, "Mission Control metric sources"): written by
 * the snapshot jobs, read by the group page. Every query scoped to the company.
 */
export function coverageRepo(db: Db) {
  return {
    /**
     * Records the jobs' finding for one domain and provider: a hint when not covered, else the plan
     * that covers it (the source of each metric, JSON). Answers what changed: `refetch` when the
     * history must be fetched in full (covered again, or a metric gained or moved to another source),
     * and `moved`, the metrics whose source changed (their old values must go, not mix with the new).
     * A metric whose source went away keeps its values: they stop at its last day, and the no-data
     * rules say so.
     */
    async set(
      companyId: string,
      domainId: string,
      provider: string,
      found: { hint: string | null; plan: string | null },
      at: string,
    ): Promise<{ refetch: boolean; moved: string[] }> {
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
      if (found.hint !== null) return { refetch: false, moved: [] };
      if (before?.hint) return { refetch: true, moved: [] };
      // No plan recorded yet is a first look (the backfill fetched everything), not a change.
      if (!before?.plan || found.plan === null || before.plan === found.plan) return { refetch: false, moved: [] };
      const old = parsePlan(before.plan);
      const now = parsePlan(found.plan);
      const moved = Object.keys(now).filter((metric) => old[metric] !== undefined && old[metric] !== now[metric]);
      const gained = Object.keys(now).some((metric) => old[metric] === undefined);
      return { refetch: moved.length > 0 || gained, moved };
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

/** A stored plan: metric → the source giving it; anything unreadable reads as none. */
function parsePlan(text: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}
