import type { Db } from "../../infra/db";
import type { CampaignAlertSettingsTable, CampaignAlertsTable } from "../../infra/db/schema";

/** A domain as the alert evaluation needs it: its group's source and rule overrides, its snooze. */
export interface DomainForEvaluation {
  id: string;
  campaign_id: string;
  domain: string;
  alerts_snoozed_until: string | null;
  alerts_evaluated_at: string | null;
  metrics_source: string;
  alert_settings: string | null;
}

/** An open alert with where it belongs, for the digest. */
export interface OpenAlertRow {
  id: string;
  campaign_id: string;
  campaign_name: string;
  domain: string;
  rule: string;
  reason: string;
  opened_at: string;
}

/**
 * The SQL of Mission Control alerts (docs/decisions.md, "Mission Control alerts"): the company's settings, the alert rows and the
 * digests sent. Every query is scoped to the company.
 */
export function alertsRepo(db: Db) {
  return {
    settings(companyId: string): Promise<CampaignAlertSettingsTable | undefined> {
      return db
        .selectFrom("campaign_alert_settings")
        .selectAll()
        .where("company_id", "=", companyId)
        .executeTakeFirst();
    },
    async saveSettings(row: CampaignAlertSettingsTable): Promise<void> {
      await db
        .insertInto("campaign_alert_settings")
        .values(row)
        .onConflict((conflict) =>
          conflict
            .column("company_id")
            .doUpdateSet({ rules: row.rules, digest: row.digest, updated_at: row.updated_at }),
        )
        .execute();
    },

    /** The company's domains with what judging them needs; `ids` narrows them (null: every domain). */
    domainsForEvaluation(companyId: string, ids: readonly string[] | null): Promise<DomainForEvaluation[]> {
      if (ids && ids.length === 0) return Promise.resolve([]);
      let query = db
        .selectFrom("campaign_domains as d")
        .innerJoin("campaigns as c", (join) =>
          join.onRef("c.id", "=", "d.campaign_id").onRef("c.company_id", "=", "d.company_id"),
        )
        .select([
          "d.id",
          "d.campaign_id",
          "d.domain",
          "d.alerts_snoozed_until",
          "d.alerts_evaluated_at",
          "c.metrics_source",
          "c.alert_settings",
        ])
        .where("d.company_id", "=", companyId);
      if (ids) query = query.where("d.id", "in", ids);
      return query.orderBy("d.id").execute();
    },

    /**
     * Domains whose snooze ended since they were last judged (`now` is an ISO instant): the next pass
     * re-evaluates them at once rather than at the next day's snapshot.
     */
    async snoozeEnded(companyId: string, now: string): Promise<string[]> {
      const rows = await db
        .selectFrom("campaign_domains")
        .select("id")
        .where("company_id", "=", companyId)
        .where("alerts_snoozed_until", "is not", null)
        .where("alerts_snoozed_until", "<=", now)
        .where((eb) =>
          eb.or([
            eb("alerts_evaluated_at", "is", null),
            eb("alerts_evaluated_at", "<", eb.ref("alerts_snoozed_until")),
          ]),
        )
        .execute();
      return rows.map((row) => row.id);
    },

    async setEvaluatedAt(companyId: string, ids: readonly string[], at: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .updateTable("campaign_domains")
        .set({ alerts_evaluated_at: at })
        .where("company_id", "=", companyId)
        .where("id", "in", ids)
        .execute();
    },

    /** Open alerts of some domains (what an evaluation continues from). */
    openAlerts(companyId: string, domainIds: readonly string[]): Promise<CampaignAlertsTable[]> {
      if (domainIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom("campaign_alerts")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("campaign_domain_id", "in", domainIds)
        .where("state", "=", "open")
        .orderBy("opened_at", "desc")
        .orderBy("id")
        .execute();
    },

    insertAlert(row: CampaignAlertsTable) {
      return db.insertInto("campaign_alerts").values(row).execute();
    },
    async updateAlert(
      companyId: string,
      id: string,
      patch: Partial<
        Pick<CampaignAlertsTable, "state" | "resolved_at" | "reason" | "passing_count" | "observed" | "evaluated_day">
      >,
    ): Promise<void> {
      await db
        .updateTable("campaign_alerts")
        .set(patch)
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .execute();
    },

    ...digestQueries(db),
  };
}

export type AlertsRepo = ReturnType<typeof alertsRepo>;

/** The open alerts a digest lists, and the digests sent: claimed once per company and period. */
function digestQueries(db: Db) {
  return {
    /** Open alerts of domains that are not snoozed at `now`, with their group and domain (the digest). */
    visibleOpenAlerts(companyId: string, now: string): Promise<OpenAlertRow[]> {
      return db
        .selectFrom("campaign_alerts as a")
        .innerJoin("campaign_domains as d", (join) =>
          join.onRef("d.id", "=", "a.campaign_domain_id").onRef("d.company_id", "=", "a.company_id"),
        )
        .innerJoin("campaigns as c", (join) =>
          join.onRef("c.id", "=", "d.campaign_id").onRef("c.company_id", "=", "d.company_id"),
        )
        .select([
          "a.id",
          "c.id as campaign_id",
          "c.name as campaign_name",
          "d.domain",
          "a.rule",
          "a.reason",
          "a.opened_at",
        ])
        .where("a.company_id", "=", companyId)
        .where("a.state", "=", "open")
        .where((eb) => eb.or([eb("d.alerts_snoozed_until", "is", null), eb("d.alerts_snoozed_until", "<=", now)]))
        .orderBy("c.name")
        .orderBy("d.domain")
        .orderBy("a.opened_at")
        .execute();
    },

    /** The instant the company's last digest went out, or null (every open alert is then new). */
    async lastDigestAt(companyId: string): Promise<string | null> {
      const row = await db
        .selectFrom("campaign_alert_digests")
        .select((eb) => eb.fn.max("sent_at").as("sent_at"))
        .where("company_id", "=", companyId)
        .executeTakeFirst();
      return (row?.sent_at as string | null | undefined) ?? null;
    },
    /** Claims a period's digest: false when another run already did (the period is mailed once). */
    async claimDigest(companyId: string, period: string, alertCount: number, sentAt: string): Promise<boolean> {
      const result = await db
        .insertInto("campaign_alert_digests")
        .values({ company_id: companyId, period, alert_count: alertCount, sent_at: sentAt })
        .onConflict((conflict) => conflict.columns(["company_id", "period"]).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    /** Gives the period back after its mail failed, so the retry can claim it again. */
    async releaseDigest(companyId: string, period: string): Promise<void> {
      await db
        .deleteFrom("campaign_alert_digests")
        .where("company_id", "=", companyId)
        .where("period", "=", period)
        .execute();
    },
  };
}
