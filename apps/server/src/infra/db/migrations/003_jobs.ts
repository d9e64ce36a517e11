import type { Kysely } from "kysely";

/**
 * The embedded job queue (jobs issue): jobs and recurring schedules are rows, so a restart loses none
 * and several runners on one database (PostgreSQL) share them through conditional updates.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("jobs")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("name", "varchar(100)", (c) => c.notNull())
    // Idempotency key: unique per job name when set (NULLs never collide on SQLite or PostgreSQL).
    .addColumn("key", "varchar(255)")
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("state", "varchar(12)", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("run_at", "varchar(40)", (c) => c.notNull())
    .addColumn("lease_owner", "varchar(100)")
    .addColumn("lease_expires_at", "varchar(40)")
    .addColumn("last_error", "text")
    .addColumn("created_at", "varchar(40)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(40)", (c) => c.notNull())
    .addColumn("finished_at", "varchar(40)")
    .execute();
  await db.schema.createIndex("jobs_name_key_unique").on("jobs").columns(["name", "key"]).unique().execute();
  await db.schema.createIndex("jobs_due_idx").on("jobs").columns(["state", "run_at"]).execute();
  await db.schema.createIndex("jobs_name_state_idx").on("jobs").columns(["name", "state", "created_at"]).execute();

  await db.schema
    .createTable("job_schedules")
    .addColumn("name", "varchar(100)", (c) => c.primaryKey())
    .addColumn("next_run_at", "varchar(40)", (c) => c.notNull())
    // The schedule itself, so a changed `everyMs` or cron is noticed at start-up and the next run recomputed.
    .addColumn("pattern", "varchar(200)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(40)", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("job_schedules").execute();
  await db.schema.dropTable("jobs").execute();
}
