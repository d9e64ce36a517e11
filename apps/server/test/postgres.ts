import pg from "pg";

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database in the cluster `adminUrl` points at, named `{prefix}{time}_{random}` (test databases
 * start with `t_`, which the global teardown checks for leftovers). `drop()` uses FORCE: a pool a failed
 * test left open would otherwise block it.
 */
export async function createDatabase(
  adminUrl: string,
  prefix = "t_",
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
