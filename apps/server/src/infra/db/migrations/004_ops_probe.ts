import type { Kysely } from "kysely";

/**
 * Runs of the operator's probe job (`ops.probe`): one row per execution of the handler, so an operator
 * (and the multi-process proof) can see which process ran which job and whether any ran twice.
 * No unique key on purpose: a duplicate execution must be visible, not refused.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("ops_probe_runs")
    .addColumn("id", "varchar(32)", (c) => c.primaryKey())
    .addColumn("job_key", "varchar(120)", (c) => c.notNull())
    .addColumn("process", "varchar(120)", (c) => c.notNull())
    .addColumn("started_at", "varchar(40)", (c) => c.notNull())
    .addColumn("finished_at", "varchar(40)")
    .execute();
  await db.schema.createIndex("ops_probe_runs_key_idx").on("ops_probe_runs").column("job_key").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("ops_probe_runs").execute();
}
