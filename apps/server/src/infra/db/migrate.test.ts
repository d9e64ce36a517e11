import pg from "pg";
import { describe, expect, it } from "vitest";
import { MIGRATION_NAMES, migrateToLatest, openDatabase } from ".";

/** Without FORCE: the pools are closed; a connection still closing only delays the drop. */
async function dropDatabase(client: pg.Client, name: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name}`);
      return;
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

// Several processes starting together each run the migrations. Kysely's Migrator on PostgreSQL takes
// a session advisory lock (pg_advisory_lock) inside its migration transaction, and tolerates the
// races of creating its own bookkeeping tables; this proves it on a fresh database.
describe.skipIf(!process.env.TEST_DATABASE_URL)("migrations under concurrent start-up [postgres]", () => {
  it("three processes migrating one fresh database at once apply each migration exactly once", async () => {
    const admin = process.env.TEST_DATABASE_URL as string;
    const name = `t_migrate_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    const url = new URL(admin);
    url.pathname = `/${name}`;
    // Three pools, as three processes would have.
    const handles = [1, 2, 3].map(() => openDatabase({ databaseUrl: url.toString(), sqlitePath: "" }));
    try {
      const outcomes = await Promise.allSettled(handles.map((h) => migrateToLatest(h.db)));
      expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
      const applied = await handles[0].db
        .selectFrom("kysely_migration" as never)
        .select("name" as never)
        .execute();
      const names = (applied as { name: string }[]).map((r) => r.name).sort();
      expect(names).toEqual(MIGRATION_NAMES);
      // The schema is whole: a table of the last migration answers.
      expect(await handles[1].db.selectFrom("jobs").select("id").execute()).toEqual([]);
    } finally {
      for (const h of handles) await h.close();
      await dropDatabase(client, name);
      await client.end();
    }
  });
});
