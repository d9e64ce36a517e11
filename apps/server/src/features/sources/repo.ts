import type { Updateable } from "kysely";
import type { Db } from "../../infra/db";
import type { ProviderResultsTable, SourcesTable } from "../../infra/db/schema";

/** Sources: every query is scoped to the session's company. */
export function sourcesRepo(db: Db) {
  return {
    listByCompany(companyId: string) {
      return db
        .selectFrom("sources")
        .selectAll()
        .where("company_id", "=", companyId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },
    find(companyId: string, id: string) {
      return db
        .selectFrom("sources")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .executeTakeFirst();
    },
    findFirstByName(companyId: string, name: string) {
      return db
        .selectFrom("sources")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("name", "=", name)
        .orderBy("created_at")
        .executeTakeFirst();
    },
    /**
     * The company a source belongs to, for the operator's live check (`npm run connectors:check --
     * --source <id>`, connectors/check/cli.ts). Not scoped to one company on purpose: the operator names a
     * source, not a company; everything after it is asked through the company's scope.
     */
    async companyOfSource(id: string): Promise<string | null> {
      const row = await db.selectFrom("sources").select("company_id").where("id", "=", id).executeTakeFirst();
      return row?.company_id ?? null;
    },
    insert(row: SourcesTable) {
      return db.insertInto("sources").values(row).execute();
    },
    /** A patch with nothing to set changes nothing (an UPDATE without columns is a syntax error). */
    async update(companyId: string, id: string, patch: Updateable<SourcesTable>) {
      if (Object.values(patch).every((value) => value === undefined)) return;
      await db.updateTable("sources").set(patch).where("company_id", "=", companyId).where("id", "=", id).execute();
    },
    /** Marks the source invalid; true when it was valid until now (so the change is announced once). */
    async invalidate(companyId: string, id: string): Promise<boolean> {
      const result = await db
        .updateTable("sources")
        .set({ invalid: 1 })
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where("invalid", "=", 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** A stored provider result of one query of a source (docs/decisions.md, "Persistent results"). */
    findResult(companyId: string, sourceId: string, queryKey: string) {
      return db
        .selectFrom("provider_results")
        .selectAll()
        .where("company_id", "=", companyId)
        .where("source_id", "=", sourceId)
        .where("query_key", "=", queryKey)
        .executeTakeFirst();
    },
    async saveResult(row: ProviderResultsTable): Promise<void> {
      await db
        .insertInto("provider_results")
        .values(row)
        .onConflict((conflict) =>
          conflict.columns(["source_id", "query_key"]).doUpdateSet({
            table_json: row.table_json,
            fetched_at: row.fetched_at,
            range_end: row.range_end,
          }),
        )
        .execute();
    },
    async deleteResults(companyId: string, sourceId: string): Promise<void> {
      await db
        .deleteFrom("provider_results")
        .where("company_id", "=", companyId)
        .where("source_id", "=", sourceId)
        .execute();
    },
    delete(companyId: string, id: string) {
      return db.deleteFrom("sources").where("company_id", "=", companyId).where("id", "=", id).execute();
    },
    /** One invalid source is enough to raise banner 125, so the look-up stops at the first. */
    firstInvalid(companyId: string) {
      return db
        .selectFrom("sources")
        .select("id")
        .where("company_id", "=", companyId)
        .where("invalid", "=", 1)
        .limit(1)
        .executeTakeFirst();
    },
  };
}

/**
 * Logins that end for good (features/sources/expiry.ts): the banner's look-up per company, and the
 * warning pass's, which crosses companies like the other schedulers, with its once-per-expiry claim.
 */
export function loginExpiryRepo(db: Db) {
  return {
    /** The company's valid sources whose login ends by `untilIso` (banner 130), soonest first. */
    loginsEndingBy(companyId: string, untilIso: string) {
      return db
        .selectFrom("sources")
        .select(["id", "name", "account", "credentials_expire_at"])
        .where("company_id", "=", companyId)
        .where("invalid", "=", 0)
        .where("credentials_expire_at", "is not", null)
        .where("credentials_expire_at", "<=", untilIso)
        .orderBy("credentials_expire_at")
        .orderBy("id")
        .execute();
    },
    /**
     * Every company's valid sources whose login ends after `fromIso` and by `untilIso` and whose admins
     * were not mailed about this expiry yet (the warning pass crosses companies, like other schedulers).
     */
    loginsToWarn(fromIso: string, untilIso: string) {
      return db
        .selectFrom("sources")
        .select(["id", "company_id", "name", "account", "credentials_expire_at"])
        .where("invalid", "=", 0)
        .where("credentials_expire_at", ">", fromIso)
        .where("credentials_expire_at", "<=", untilIso)
        .where((eb) =>
          eb.or([eb("expiry_warned_for", "is", null), eb("expiry_warned_for", "!=", eb.ref("credentials_expire_at"))]),
        )
        .orderBy("company_id")
        .orderBy("credentials_expire_at")
        .execute();
    },
    /**
     * Takes the warning of one expiry for this pass: true for the one process that marked it, so two
     * passes (or processes) never mail the same expiry twice. A reconnected source has a new expiry.
     */
    async claimExpiryWarning(companyId: string, id: string, expiresAt: string): Promise<boolean> {
      const result = await db
        .updateTable("sources")
        .set({ expiry_warned_for: expiresAt })
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where("credentials_expire_at", "=", expiresAt)
        .where((eb) => eb.or([eb("expiry_warned_for", "is", null), eb("expiry_warned_for", "!=", expiresAt)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /**
     * The expiry read from a source's credentials, kept only while none is: a reconnect that stored a new
     * one meanwhile (it read the old credentials before) is not overwritten.
     */
    async copyExpiry(companyId: string, id: string, expiresAt: string): Promise<boolean> {
      const result = await db
        .updateTable("sources")
        .set({ credentials_expire_at: expiresAt })
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where("credentials_expire_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** The mail was not sent: the expiry is free again for the next pass. */
    async releaseExpiryWarning(companyId: string, id: string, expiresAt: string): Promise<void> {
      await db
        .updateTable("sources")
        .set({ expiry_warned_for: null })
        .where("company_id", "=", companyId)
        .where("id", "=", id)
        .where("expiry_warned_for", "=", expiresAt)
        .execute();
    },
    /**
     * Every company's sources of these connectors whose expiry was never copied out of their credentials
     * (connected before it was kept): the start-up pass crosses companies, like the warning pass.
     */
    withoutExpiry(names: readonly string[]) {
      if (names.length === 0) return Promise.resolve([]);
      return db
        .selectFrom("sources")
        .select(["id", "company_id", "name", "credentials"])
        .where("name", "in", names)
        .where("credentials", "is not", null)
        .where("credentials_expire_at", "is", null)
        .execute();
    },
  };
}
