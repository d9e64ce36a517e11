import type { Insertable, Updateable } from "kysely";
import type { Db } from "../../infra/db";
import type { CompaniesTable } from "../../infra/db/schema";

/** Companies: the id is always the session's company. */
export function companiesRepo(db: Db) {
  return {
    find(companyId: string) {
      return db.selectFrom("companies").selectAll().where("id", "=", companyId).executeTakeFirst();
    },
    /**
     * The company that has proved this custom domain (a CNAME to its target was found); at most one, by
     * the partial unique index. Claims not yet verified hold nothing. Domains are stored in lower case.
     */
    findByVerifiedDomain(domain: string) {
      return db
        .selectFrom("companies")
        .selectAll()
        .where("domain_cname", "=", domain)
        .where("domain_verified_at", "is not", null)
        .executeTakeFirst();
    },
    /** Withdraws other companies' verification of a domain whose DNS now proves `companyId` holds it. */
    async unverifyDomainForOthers(domain: string, companyId: string) {
      await db
        .updateTable("companies")
        .set({ domain_verified_at: null })
        .where("domain_cname", "=", domain)
        .where("id", "!=", companyId)
        .where("domain_verified_at", "is not", null)
        .execute();
    },
    /** The company a card provider's customer belongs to (features/billing). */
    findByStripeCustomer(customerId: string) {
      return db.selectFrom("companies").selectAll().where("stripe_customer_id", "=", customerId).executeTakeFirst();
    },
    /**
     * Companies whose service ended at `now` and that were not yet told (docs/product.md §4): past
     * `expiresAt`, canceled or without a subscription, never overdue (the provider still retries).
     */
    serviceEndedUnannounced(now: string) {
      return db
        .selectFrom("companies")
        .select("id")
        .where("service_ended_at", "is", null)
        .where("expires_at", "<=", now)
        .where("state", "!=", "overdue")
        .where((eb) => eb.or([eb("state", "=", "canceled"), eb("subscription_id", "is", null)]))
        .orderBy("expires_at")
        .limit(500)
        .execute();
    },
    /** Billing columns default to null (a new company has no card customer yet). */
    insert(row: Insertable<CompaniesTable>) {
      return db.insertInto("companies").values(row).execute();
    },
    /** A patch with nothing to set changes nothing (an UPDATE without columns is a syntax error). */
    async update(companyId: string, patch: Updateable<CompaniesTable>) {
      if (Object.values(patch).every((value) => value === undefined)) return;
      await db.updateTable("companies").set(patch).where("id", "=", companyId).execute();
    },
    delete(companyId: string) {
      return db.deleteFrom("companies").where("id", "=", companyId).execute();
    },
    count() {
      return db
        .selectFrom("companies")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .executeTakeFirstOrThrow();
    },
  };
}
