import type { Kysely } from "kysely";

/** Companies, users, sessions and invitations (platform issue). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("companies")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("name", "varchar(200)", (c) => c.notNull())
    .addColumn("domain", "varchar(255)")
    .addColumn("logo", "varchar(255)")
    .addColumn("phone", "varchar(60)")
    .addColumn("site_title", "varchar(120)")
    .addColumn("state", "varchar(20)", (c) => c.notNull())
    .addColumn("expires_at", "varchar(40)")
    .addColumn("services_dashboards", "integer", (c) => c.notNull())
    .addColumn("services_bonus_dashboards", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("subscription_id", "varchar(120)")
    .addColumn("subscription_interval", "integer")
    .addColumn("discount", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cancellation", "text")
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("users")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("name", "varchar(200)", (c) => c.notNull())
    .addColumn("email", "varchar(255)", (c) => c.notNull().unique())
    .addColumn("password_hash", "varchar(255)")
    .addColumn("role", "varchar(20)", (c) => c.notNull())
    .addColumn("creator", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("avatar", "varchar(255)")
    .addColumn("terms_consent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("age_consent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("intro_passed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("timezone", "varchar(64)", (c) => c.notNull().defaultTo("UTC"))
    .addColumn("onboarding_flow", "varchar(20)", (c) => c.notNull().defaultTo("dashboard"))
    .addColumn("onboarding_step", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("users_company_idx").on("users").column("company_id").execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("user_id", "varchar(32)", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .addColumn("last_seen_at", "varchar(40)", (c) => c.notNull())
    .addColumn("expires_at", "varchar(40)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("invitations")
    .addColumn("token_hash", "varchar(64)", (c) => c.primaryKey())
    .addColumn("user_id", "varchar(32)", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("company_id", "varchar(32)", (c) => c.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("expires_at", "varchar(40)", (c) => c.notNull())
    .addColumn("used_at", "varchar(40)")
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["invitations", "sessions", "users", "companies"]) {
    await db.schema.dropTable(table).execute();
  }
}
