import { sql } from "kysely";
import type { Db } from "../../infra/db";
import type { CompanyCouponsTable, CouponsTable } from "../../infra/db/schema";

const STORABLE_KEY = /^[a-z0-9][a-z0-9_-]*$/i;

/** A lifetime deal's standing: active, no end date, no card subscription, nothing to charge next. */
export const LIFETIME_STATE = {
  state: "active",
  expires_at: null,
  subscription_id: null,
  next_charge_at: null,
} as const;

/**
 * Coupons (operator-wide definitions) and the coupons of each company. Every query about what a
 * company has takes its id. The company's allowance columns change here, inside the transaction that
 * records the redemption, so a coupon is never counted without its dashboards (or the reverse).
 */
export function couponsRepo(db: Db) {
  return {
    async find(codeKey: string) {
      // Only letters, digits, - and _ are ever stored (ZCouponDefinition): anything else typed is no coupon
      // of ours, and is not sent to the database (PostgreSQL answers a NUL byte in text with an error).
      if (!STORABLE_KEY.test(codeKey)) return undefined;
      return db.selectFrom("coupons").selectAll().where("code_key", "=", codeKey).executeTakeFirst();
    },
    list() {
      return db.selectFrom("coupons").selectAll().orderBy("created_at").orderBy("code_key").execute();
    },
    insert(row: CouponsTable) {
      return db.insertInto("coupons").values(row).execute();
    },
    /** The operator changed a definition (import): the redemptions counted so far stay. */
    updateDefinition(row: Omit<CouponsTable, "redemptions" | "created_at">) {
      const { code_key, ...definition } = row;
      return db.updateTable("coupons").set(definition).where("code_key", "=", code_key).execute();
    },
    /**
     * Takes one redemption if one is left: a conditional UPDATE, so of two transactions taking the last
     * one the second matches no row (PostgreSQL re-checks the condition after the first commits; SQLite
     * runs writers one at a time). True when taken.
     */
    async redeem(codeKey: string): Promise<boolean> {
      const result = await db
        .updateTable("coupons")
        .set({ redemptions: sql<number>`redemptions + 1` })
        .where("code_key", "=", codeKey)
        .where((eb) => eb.or([eb("max_redemptions", "is", null), eb("redemptions", "<", eb.ref("max_redemptions"))]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The company's coupons with their definitions, in the order they were applied. */
    appliedOf(companyId: string) {
      return db
        .selectFrom("company_coupons")
        .innerJoin("coupons", "coupons.code_key", "company_coupons.coupon_key")
        .select([
          "coupons.code",
          "coupons.type",
          "coupons.value",
          "coupons.name",
          "company_coupons.applied_at",
          "company_coupons.position",
        ])
        .where("company_coupons.company_id", "=", companyId)
        .orderBy("company_coupons.position")
        .execute();
    },
    insertApplied(row: CompanyCouponsTable) {
      return db.insertInto("company_coupons").values(row).execute();
    },

    /**
     * Writes the company's row without changing it: on PostgreSQL this holds the row's lock until the
     * transaction ends, so two applies for one company take turns (each sees the other's coupon when
     * judging the stacking). False when the company does not exist.
     */
    async lockCompany(companyId: string): Promise<boolean> {
      const result = await db
        .updateTable("companies")
        .set({ services_bonus_dashboards: sql<number>`services_bonus_dashboards` })
        .where("id", "=", companyId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** dashboards.bonus: raises the company's bonus dashboards (docs/product.md §9 allowance). */
    async addBonusDashboards(companyId: string, dashboards: number) {
      await db
        .updateTable("companies")
        .set({ services_bonus_dashboards: sql<number>`services_bonus_dashboards + ${dashboards}` })
        .where("id", "=", companyId)
        .execute();
    },
    /**
     * ltd.appsumo at registration, on the company being created: it owns `dashboards` for life, served
     * with no end date and no charge (an active state without subscription or expiry keeps service,
     * core billingStanding). A checkout paid at the same registration is replaced: its subscription id
     * goes (billing cancels it at Stripe after commit). A company that exists changes state through
     * companies.setState instead.
     */
    async grantLifetime(companyId: string, dashboards: number) {
      await db
        .updateTable("companies")
        .set({ ...LIFETIME_STATE, services_dashboards: dashboards })
        .where("id", "=", companyId)
        .execute();
    },
  };
}

export type CouponsRepo = ReturnType<typeof couponsRepo>;
