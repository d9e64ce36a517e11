import pg from "pg";

/**
 * Test databases are named `t_<creation ms>_<run>_<random>` (harness). `<run>` is this vitest run's id
 * (`TEST_DB_RUN`, set once in vitest.config.ts and passed to every worker), so the teardown drops only
 * this run's leftovers: a second run on the same cluster keeps its live databases.
 */
export const TEST_DATABASE_PATTERN = /^t_(\d+)_([a-z0-9]+)_[a-z0-9]+$/;

/** This run's id; a process started outside vitest (a script, a proof) gets one of its own. */
export function testRunId(): string {
  process.env.TEST_DB_RUN ??= Math.random().toString(36).slice(2, 8);
  return process.env.TEST_DB_RUN;
}

/** A fresh test database name for this run. */
export function testDatabaseName(): string {
  return `t_${Date.now()}_${testRunId()}_${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Server project's global setup: when the suite runs on PostgreSQL, every `t_…` database it created must
 * be gone at the end (each suite drops its own in `close()`). A leftover fails the run, naming the
 * databases, and is dropped so the cluster does not fill up from one run to the next.
 */
export default function setup() {
  const run = testRunId();
  return async function teardown() {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) return;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database");
      const leftovers = rows.map((row) => row.datname).filter((name) => TEST_DATABASE_PATTERN.exec(name)?.[2] === run);
      for (const name of leftovers) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      if (leftovers.length > 0) {
        // Vitest prints an error thrown here but still exits 0: set the exit code so CI fails.
        process.exitCode = 1;
        throw new Error(
          `${leftovers.length} test database(s) were not dropped by their suite (startTestEnv without close()?): ${leftovers.join(", ")}`,
        );
      }
    } finally {
      await client.end();
    }
  };
}
