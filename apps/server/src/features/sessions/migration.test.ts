import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "../../infra/db";
import * as m030 from "../../infra/db/migrations/030_session_details";

it("sessions from before migration 030 get distinct public ids and no browser or address", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-m030-"));
  const handle = openDatabase({ databaseUrl: null, sqlitePath: path.join(dir, "db.sqlite") });
  try {
    await migrateToLatest(handle.db);
    await m030.down(handle.db as Kysely<unknown>);
    const now = new Date().toISOString();
    // Only the sessions matter here: their user and company rows are left out.
    await sql`PRAGMA foreign_keys = OFF`.execute(handle.db);
    for (const id of ["hash-1", "hash-2"]) {
      await sql`INSERT INTO sessions (id, user_id, company_id, data, created_at, last_seen_at, expires_at)
        VALUES (${id}, 'u1', 'c1', '{}', ${now}, ${now}, ${now})`.execute(handle.db);
    }
    await m030.up(handle.db as Kysely<unknown>);
    const rows = await handle.db.selectFrom("sessions").selectAll().orderBy("id").execute();
    expect(rows.map((row) => [row.id, row.user_agent, row.ip_address])).toEqual([
      ["hash-1", null, null],
      ["hash-2", null, null],
    ]);
    expect(new Set(rows.map((row) => row.public_id)).size).toBe(2);
    for (const row of rows) expect(row.public_id).toMatch(/^[A-Za-z0-9_-]{16}$/);
  } finally {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
