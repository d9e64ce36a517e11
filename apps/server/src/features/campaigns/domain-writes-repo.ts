import type { Db } from "../../infra/db";
import type { CampaignDomainsTable } from "../../infra/db/schema";

/**
 * A group's domains one at a time: the one with a host (adding a domain twice is refused), adding one,
 * snoozing its alerts and removing it (its daily values and alerts go with it by the foreign keys'
 * cascades). Every query scoped to the company and the group. Reading domains with their alert counts
 * is repo.ts.
 */
export function domainWrites(db: Db) {
  return {
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
  };
}
