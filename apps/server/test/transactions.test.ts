import { sql } from "kysely";
import { afterEach, expect, it } from "vitest";
import type { Db } from "../src/infra/db";
import { describeEachDb, type TestEnv } from "./harness";

/**
 * Makes every INSERT into `table` fail inside the database, as a crash or a constraint would in the
 * middle of a multi-step write. Returns the undo.
 */
async function failInserts(env: TestEnv, table: "sessions" | "invitations" | "dashboards" | "sources") {
  const db = env.ctx.db as Db;
  if (env.target === "sqlite") {
    await sql
      .raw(`CREATE TRIGGER fail_${table} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'forced failure'); END`)
      .execute(db);
    return async () => void (await sql.raw(`DROP TRIGGER fail_${table}`).execute(db));
  }
  await sql
    .raw(
      `CREATE FUNCTION fail_${table}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'forced failure'; END $$ LANGUAGE plpgsql;
       CREATE TRIGGER fail_${table} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION fail_${table}();`,
    )
    .execute(db);
  return async () => {
    await sql.raw(`DROP TRIGGER fail_${table} ON ${table}; DROP FUNCTION fail_${table}();`).execute(db);
  };
}

async function count(
  env: TestEnv,
  table: "companies" | "users" | "invitations" | "sessions" | "files",
  column: string,
  value: string,
) {
  const row = await sql<{
    n: number;
  }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} = ${value}`.execute(env.ctx.db as Db);
  return Number(row.rows[0].n);
}

describeEachDb("multi-step writes run in one transaction", (env) => {
  let undo: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await undo?.();
    undo = null;
  });

  it("registration: a failure creating the session leaves no company and no user behind", async () => {
    undo = await failInserts(env(), "sessions");
    const client = env().client();
    const { response } = await client.register({ name: "Orphan Owner", email: "orphan@example.com" });
    expect(response.statusCode).toBe(500);
    expect(await count(env(), "users", "email", "orphan@example.com")).toBe(0);
    expect(await count(env(), "companies", "name", "Orphan Owner's company")).toBe(0);
    await undo();
    undo = null;
    // Nothing half-made blocks the address: registering again works.
    const again = await env().client().register({ name: "Orphan Owner", email: "orphan@example.com" });
    expect(again.response.statusCode).toBe(200);
    expect(await count(env(), "companies", "name", "Orphan Owner's company")).toBe(1);
  });

  it("invitation: a failure storing the invitation leaves no invited user behind", async () => {
    const admin = env().client();
    await admin.signUpAndPassIntro({ email: "inviter@example.com" });
    undo = await failInserts(env(), "invitations");
    const outbox = env().outbox().length;
    const response = await admin.api("POST", "/api/users", { name: "Never Here", email: "never@example.com" });
    expect(response.statusCode).toBe(500);
    expect(await count(env(), "users", "email", "never@example.com")).toBe(0);
    // No mail goes out for an invitation that was not stored.
    expect(env().outbox().length).toBe(outbox);
  });

  it("setting a password from an invitation: a failure starting the session keeps the invitation open", async () => {
    const admin = env().client();
    await admin.signUpAndPassIntro({ email: "setter-admin@example.com" });
    const invited = await admin.api("POST", "/api/users", { name: "Sam Setter", email: "setter@example.com" });
    expect(invited.statusCode).toBe(200);
    const mail = env()
      .outbox()
      .find((m) => m.includes("setter@example.com"));
    const token = /\/password\/set\/([A-Za-z0-9_-]+)/.exec(String(mail))?.[1];
    const body = { token, password: "member-pass-1", password_confirmation: "member-pass-1" };
    const headers = { "x-requested-with": "XMLHttpRequest" };
    undo = await failInserts(env(), "sessions");
    expect((await env().client().raw("POST", "/password/set", { body, headers })).statusCode).toBe(500);
    const userId = invited.json().data.id as string;
    const row = await sql<{
      password_hash: string | null;
    }>`select password_hash from users where id = ${userId}`.execute(env().ctx.db as Db);
    expect(row.rows[0].password_hash).toBeNull();
    await undo();
    undo = null;
    // The invitation was not spent by the failed attempt.
    expect((await env().client().raw("POST", "/password/set", { body, headers })).statusCode).toBe(200);
  });

  it("dashboard clone: a failure inserting the copy leaves the list as it was", async () => {
    const owner = env().client();
    await owner.signUpAndPassIntro({ email: "cloner@example.com" });
    const created = await owner.api("POST", "/api/dashboards", { name: "Original" });
    const permalink = created.json().data.permalink as string;
    const id = (await owner.api("GET", `/api/dashboards/${permalink}`)).json().data.id as string;
    const before = (await owner.api("GET", "/api/dashboards?active=true")).json().meta.total as number;
    undo = await failInserts(env(), "dashboards");
    expect((await owner.api("POST", `/api/dashboards/${id}/clone`)).statusCode).toBe(500);
    await undo();
    undo = null;
    expect((await owner.api("GET", "/api/dashboards?active=true")).json().meta.total).toBe(before);
    expect((await owner.api("POST", `/api/dashboards/${id}/clone`)).statusCode).toBe(200);
  });

  it("an uploaded source: a failure storing the source leaves no file row behind", async () => {
    const owner = env().client();
    await owner.signUpAndPassIntro({ email: "uploader@example.com" });
    const companyId = (await owner.api("GET", "/api/company")).json().data.id as string;
    const csv = { file: { filename: "m.csv", type: "text/csv", data: Buffer.from("day,visits\n2024-01-01,3\n") } };
    undo = await failInserts(env(), "sources");
    expect((await owner.apiMultipart("POST", "/api/sources", { name: "csv" }, csv)).statusCode).toBe(500);
    expect(await count(env(), "files", "company_id", companyId)).toBe(0);
    await undo();
    undo = null;
    expect((await owner.apiMultipart("POST", "/api/sources", { name: "csv" }, csv)).statusCode).toBe(200);
    expect(await count(env(), "files", "company_id", companyId)).toBe(1);
  });
});
