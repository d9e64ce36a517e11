import type { Kysely } from "kysely";

/**
 * Coupons (docs/decisions.md, "Coupons end to end: storage, applying, registration"; docs/product.md §5). `code_key` is the code trimmed and in lower case (core
 * `couponKey`): the primary key makes "SPRING" and "spring" one coupon on SQLite and PostgreSQL alike,
 * without a functional index. `redemptions` is counted by a conditional UPDATE (below the maximum or no
 * maximum), so two companies taking the last redemption at once cannot both get it.
 * `company_coupons` is what a company has; its primary key is the "never twice" rule. Deleting a
 * company deletes its rows; a coupon some company has cannot be deleted (nothing deletes coupons).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("coupons")
    .addColumn("code_key", "varchar(64)", (c) => c.primaryKey())
    // As the operator wrote it: what the pages show.
    .addColumn("code", "varchar(64)", (c) => c.notNull())
    .addColumn("type", "varchar(32)", (c) => c.notNull())
    .addColumn("value", "double precision", (c) => c.notNull())
    .addColumn("name", "varchar(120)", (c) => c.notNull())
    .addColumn("max_redemptions", "integer")
    .addColumn("redemptions", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "varchar(40)")
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("company_coupons")
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("coupon_key", "varchar(64)", (c) => c.notNull().references("coupons.code_key"))
    // 1, 2, 3… per company: stacking asks for the LAST coupon's type, and several codes applied at
    // sign-up share one instant, so the order cannot come from applied_at.
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("applied_at", "varchar(40)", (c) => c.notNull())
    .addPrimaryKeyConstraint("company_coupons_pk", ["company_id", "coupon_key"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("company_coupons").execute();
  await db.schema.dropTable("coupons").execute();
}
