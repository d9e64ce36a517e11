import pg from "pg";

/** Test databases are named `t_<creation ms>_<random>` (harness); the teardown finds this run's leftovers by it. */
export const TEST_DATABASE_PATTERN = /^t_(\d+)_[a-z0-9]+$/;

/**
 * Server project's global setup: when the suite runs on PostgreSQL, every `t_…` database it created must
 * be gone at the end (each suite drops its own in `close()`). A leftover fails the run, naming the
 * databases, and is dropped so the cluster does not fill up from one run to the next.
 */
export default function setup() {
  const startedAt = Date.now();
  return async function teardown() {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) return;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database");
      const leftovers = rows
        .map((row) => row.datname)
        .filter((name) => Number(TEST_DATABASE_PATTERN.exec(name)?.[1] ?? -1) >= startedAt);
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
