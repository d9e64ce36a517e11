import pg from "pg";
import { describe, expect, it } from "vitest";
import { startTestEnv } from "./harness";

const adminUrl = process.env.TEST_DATABASE_URL;

async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    return rowCount === 1;
  } finally {
    await client.end();
  }
}

describe.skipIf(!adminUrl)("PostgreSQL test databases", () => {
  it("a suite's database is dropped when it closes, even with a connection still open to it", async () => {
    const env = await startTestEnv("postgres");
    const url = String(env.ctx.config.databaseUrl);
    const name = new URL(url).pathname.slice(1);
    expect(name).toMatch(/^t_\d+_/);
    expect(await databaseExists(name)).toBe(true);
    // A connection the app's pool does not own (as a test that forgot to end its client would leave).
    const straggler = new pg.Client({ connectionString: url });
    straggler.on("error", () => {});
    await straggler.connect();
    try {
      await env.close();
      expect(await databaseExists(name)).toBe(false);
    } finally {
      await straggler.end().catch(() => {});
    }
  });
});
