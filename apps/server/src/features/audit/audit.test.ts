import { Writable } from "node:stream";
import type { TAuditEvent } from "@app/core";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildDashboard, buildMember, buildOwner, type Owner } from "../../../test/factories";
import { describeEachDb, type TestEnv } from "../../../test/harness";
import { startSmtpSink } from "../../../test/smtp-sink";
import type { Db } from "../../infra/db";
import type { AuditEventsTable } from "../../infra/db/schema";
import { newId } from "../../infra/security";
import { dashboardShared } from "./events";
import { auditLog } from "./record";
import { auditRepo } from "./repo";

const DASHBOARD_PASSWORD = "hunter2-secret";
const BROWSER = "Mozilla/5.0 (audit-test)";

/** Every line the product logs while the suite runs (the audit lines among them). */
const logLines: string[] = [];

/** The company's audit rows, oldest first, as the table holds them. */
async function rowsOf(env: TestEnv, companyId: string): Promise<AuditEventsTable[]> {
  return env.ctx.db
    .selectFrom("audit_events")
    .selectAll()
    .where("company_id", "=", companyId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** The company's rows of one group of actions, as [action, actor e-mail, target label, details]. */
async function eventsOf(env: TestEnv, owner: Owner, prefix: string) {
  return (await rowsOf(env, owner.company.id))
    .filter((row) => row.action.startsWith(prefix))
    .map((row) => [row.action, row.actor_email, row.target_label, JSON.parse(row.details)]);
}

/** The change of the atomicity test, as SQL of its own (a feature's repo is its own business). */
async function refreshPermalink(db: Db, dashboardId: string): Promise<void> {
  await db.updateTable("dashboards").set({ permalink: "forced-failure" }).where("id", "=", dashboardId).execute();
}

function dashboardRow(db: Db, dashboardId: string) {
  return db.selectFrom("dashboards").selectAll().where("id", "=", dashboardId).executeTakeFirstOrThrow();
}

/** The admin's client with a browser's user agent on every call (the rows keep it). */
function as(owner: Owner) {
  return (method: "GET" | "POST" | "PUT" | "DELETE", url: string, body?: unknown) =>
    owner.client.api(method, url, body, { "user-agent": BROWSER });
}

describeEachDb("company audit log", (env) => {
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    // Services read the context's logger when they log, so the suite sees what operators would.
    env().ctx.logger = pino({ level: "info" }, stream);
  });

  it("sign-ins: a session started, a wrong password for a member (that company only), nothing for an unknown address", async () => {
    const owner = await buildOwner(env());
    const browser = env().client();
    const signIn = await browser.raw("POST", "/login", {
      body: { email: owner.email, password: owner.password },
      headers: { "x-requested-with": "XMLHttpRequest", "user-agent": BROWSER },
    });
    expect(signIn.statusCode).toBe(200);
    const refused = await env().client().login(owner.email, "not-the-password");
    expect(refused.statusCode).toBe(422);
    const before = await env().ctx.db.selectFrom("audit_events").select("id").execute();
    expect((await env().client().login("nobody-here@example.com", "whatever-1")).statusCode).toBe(422);
    expect(await env().ctx.db.selectFrom("audit_events").select("id").execute()).toHaveLength(before.length);

    const rows = (await rowsOf(env(), owner.company.id)).filter((row) => row.action.startsWith("auth."));
    // The factory's own session is a sign-in too (it starts one the same way).
    expect(rows.map((row) => [row.action, row.actor_email, row.target_label, row.details])).toEqual([
      ["auth.sign_in", owner.email, owner.email, "{}"],
      ["auth.sign_in", owner.email, owner.email, "{}"],
      ["auth.sign_in_failed", null, owner.email, JSON.stringify({ email: owner.email })],
    ]);
    // In the order written, even within one millisecond: the factory's session, then the browser's.
    expect(rows.map((row) => row.ip)).toEqual([null, "127.0.0.1", "127.0.0.1"]);
    expect(rows[1]).toMatchObject({ user_agent: BROWSER, actor_id: owner.user.id });
    // Not the password typed, anywhere.
    expect(JSON.stringify(await rowsOf(env(), owner.company.id))).not.toContain("not-the-password");
  });

  it("members: invited, role changed, removed — by the admin, from their address, the member as target", async () => {
    const owner = await buildOwner(env());
    const invited = await as(owner)("POST", "/api/users", {
      name: "Mia Member",
      email: "mia-audit@example.com",
      roleName: "user",
    });
    expect(invited.statusCode, invited.body).toBe(200);
    const id = invited.json().data.id;
    expect((await as(owner)("PUT", `/api/users/${id}`, { roleName: "admin" })).statusCode).toBe(200);
    expect((await as(owner)("DELETE", `/api/users/${id}`)).statusCode).toBe(204);
    expect(await eventsOf(env(), owner, "member.")).toEqual([
      ["member.invited", owner.email, "mia-audit@example.com", { role: "user" }],
      ["member.role_changed", owner.email, "mia-audit@example.com", { from: "user", to: "admin" }],
      ["member.removed", owner.email, "mia-audit@example.com", {}],
    ]);
    const rows = await rowsOf(env(), owner.company.id);
    expect(rows.filter((row) => row.action.startsWith("member.")).every((row) => row.user_agent === BROWSER)).toBe(
      true,
    );
  });

  it("sources: connected and removed (a token connector, re-authorised: in that connector's folder)", async () => {
    const owner = await buildOwner(env());
    const connected = await as(owner)("POST", "/api/sources", { name: "demo" });
    expect(connected.statusCode, connected.body).toBe(200);
    expect((await as(owner)("DELETE", `/api/sources/${connected.json().data.id}`)).statusCode).toBe(204);
    expect(await eventsOf(env(), owner, "source.")).toEqual([
      ["source.connected", owner.email, "Demo data", { connector: "demo" }],
      ["source.removed", owner.email, "Demo data", { connector: "demo" }],
    ]);
  });

  it("dashboard sharing: password set and removed, embed link made and revoked, public link refreshed, archived and restored", async () => {
    const owner = await buildOwner(env());
    const dashboard = await buildDashboard(env(), { company: owner.company, name: "Acme SEO" });
    const url = `/api/dashboards/${dashboard.id}`;
    const calls: [string, string, unknown?][] = [
      ["PUT", url, { category: "new_password", password: DASHBOARD_PASSWORD }],
      ["PUT", url, { category: "new_password", password: "" }],
      ["POST", `${url}/embed`, { days: 30 }],
      ["DELETE", `${url}/embed`],
      ["PUT", url, { category: "refresh_permalink" }],
      ["DELETE", `${url}/archive`],
      ["PUT", `${url}/restore`, {}],
    ];
    for (const [method, path, body] of calls) {
      const answer = await as(owner)(method as "PUT", path, body);
      expect(answer.statusCode, `${method} ${path}: ${answer.body}`).toBeLessThan(300);
    }
    expect(await eventsOf(env(), owner, "dashboard.")).toEqual([
      ["dashboard.password_set", owner.email, "Acme SEO", {}],
      ["dashboard.password_removed", owner.email, "Acme SEO", {}],
      ["dashboard.embed_created", owner.email, "Acme SEO", { days: 30 }],
      ["dashboard.embed_revoked", owner.email, "Acme SEO", {}],
      ["dashboard.permalink_refreshed", owner.email, "Acme SEO", {}],
      ["dashboard.archived", owner.email, "Acme SEO", {}],
      ["dashboard.restored", owner.email, "Acme SEO", {}],
    ]);
  });

  it("automatic reports: created, changed, sent by hand, deleted", async () => {
    const owner = await buildOwner(env());
    const dashboard = await buildDashboard(env(), { company: owner.company, name: "Acme monthly" });
    const created = await as(owner)("POST", "/api/automatic-reports", {
      dashboard_id: dashboard.id,
      recipients: "ceo@client.com",
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id;
    const changed = await as(owner)("PUT", `/api/automatic-reports/${id}`, {
      dashboard_id: dashboard.id,
      recipients: "ceo@client.com, cmo@client.com",
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const sent = await as(owner)("POST", `/api/automatic-reports/${id}/send`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await as(owner)("DELETE", `/api/automatic-reports/${id}`)).statusCode).toBeLessThan(300);
    expect(await eventsOf(env(), owner, "report.")).toEqual([
      ["report.created", owner.email, "report of Acme monthly", {}],
      ["report.changed", owner.email, "report of Acme monthly", {}],
      ["report.sent", owner.email, "report of Acme monthly", { recipients: "ceo@client.com, cmo@client.com" }],
      ["report.deleted", owner.email, "report of Acme monthly", {}],
    ]);
  });

  it("sent by hand: the delivery and its row commit together; a failure in that transaction leaves neither", async () => {
    const owner = await buildOwner(env());
    const dashboard = await buildDashboard(env(), { company: owner.company, name: "Acme weekly" });
    const created = await as(owner)("POST", "/api/automatic-reports", {
      dashboard_id: dashboard.id,
      recipients: "ceo@client.com",
    });
    const id = created.json().data.id;
    const deliveries = () =>
      env().ctx.db.selectFrom("report_deliveries").select(["manual", "state"]).where("report_id", "=", id).execute();
    const db = env().ctx.db;
    // The audit row's insert fails (its table refuses it): no delivery may stand (or be queued) without it.
    await db.schema.alterTable("audit_events").renameTo("audit_events_away").execute();
    try {
      const refused = await as(owner)("POST", `/api/automatic-reports/${id}/send`, {});
      expect(refused.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await db.schema.alterTable("audit_events_away").renameTo("audit_events").execute();
    }
    expect(await deliveries()).toEqual([]);
    const queued = await env().ctx.jobs.list("reports.send", "waiting");
    expect(queued.filter((job) => JSON.stringify(job.payload).includes(owner.company.id))).toEqual([]);

    expect((await as(owner)("POST", `/api/automatic-reports/${id}/send`, {})).statusCode).toBe(200);
    expect(await deliveries()).toEqual([{ manual: 1, state: "pending" }]);
    expect((await eventsOf(env(), owner, "report.sent")).length).toBe(1);
  });

  it("company: custom domain, sender address, billing details and cancellation", async () => {
    const owner = await buildOwner(env());
    const calls: [string, string, unknown][] = [
      ["POST", "/api/company", { domain_cname: "reports.audit-agency.example" }],
      ["PUT", "/api/company/sender", { address: "reports@audit-agency.example" }],
      [
        "PUT",
        "/api/company/billing-details",
        { name: "Acme Ltd", address: "1 Road", postal_code: "BS1", city: "Bristol", country: "gb", vat_id: "" },
      ],
      ["DELETE", "/api/company", { delete: false, cancellation: { reason: "too expensive" } }],
    ];
    for (const [method, path, body] of calls) {
      const answer = await as(owner)(method as "PUT", path, body);
      expect(answer.statusCode, `${method} ${path}: ${answer.body}`).toBeLessThan(300);
    }
    const rows = (await rowsOf(env(), owner.company.id)).filter((row) => /^(company|billing)\./.test(row.action));
    expect(rows.map((row) => [row.action, row.actor_email, JSON.parse(row.details)])).toEqual([
      ["company.domain_changed", owner.email, { domain: "reports.audit-agency.example" }],
      ["company.sender_changed", owner.email, { address: "reports@audit-agency.example" }],
      ["billing.details_changed", owner.email, {}],
      ["billing.canceled", owner.email, {}],
    ]);
  });

  it("atomic: a change and its audit row commit together; a failure after the row leaves neither", async () => {
    const owner = await buildOwner(env());
    const dashboard = await buildDashboard(env(), { company: owner.company, name: "Atomic" });
    const audit = auditLog(env().ctx);
    const event = dashboardShared("dashboard.permalink_refreshed", dashboard);
    // The caller's transaction fails after the change and its row were written.
    await expect(
      env()
        .ctx.db.transaction()
        .execute(async (trx) => {
          await audit.within(trx, event, (t) => refreshPermalink(t, dashboard.id));
          expect(
            await trx.selectFrom("audit_events").select("id").where("company_id", "=", owner.company.id).execute(),
          ).not.toHaveLength(0);
          throw new Error("forced failure");
        }),
    ).rejects.toThrow("forced failure");
    // The row cannot be written (no such company): the change is rolled back with it.
    await expect(
      audit.within(env().ctx.db, { ...event, companyId: "no-such-company" }, (t) => refreshPermalink(t, dashboard.id)),
    ).rejects.toThrow();
    expect((await dashboardRow(env().ctx.db, dashboard.id)).permalink).toBe(dashboard.permalink);
    expect(await rowsOf(env(), owner.company.id)).toEqual(
      (await rowsOf(env(), owner.company.id)).filter((r) => r.action === "auth.sign_in"),
    );

    // Through the API: with the log's table unusable, setting a password fails and changes nothing.
    await env().ctx.db.schema.alterTable("audit_events").renameTo("audit_events_off").execute();
    try {
      const refused = await as(owner)("PUT", `/api/dashboards/${dashboard.id}`, {
        category: "new_password",
        password: "never-saved-1",
      });
      expect(refused.statusCode).toBe(500);
    } finally {
      await env().ctx.db.schema.alterTable("audit_events_off").renameTo("audit_events").execute();
    }
    expect((await dashboardRow(env().ctx.db, dashboard.id)).password_hash).toBeNull();
  });

  it("no secret in any audit row or log line: dashboard password, sign-in password", async () => {
    const everything = JSON.stringify(await env().ctx.db.selectFrom("audit_events").selectAll().execute());
    const auditLines = logLines.filter((line) => line.includes('"audit":'));
    expect(auditLines.length).toBeGreaterThan(10);
    expect(JSON.parse(auditLines[0]).audit).toEqual({
      action: expect.any(String),
      company: expect.any(String),
      actor: expect.toBeOneOf([expect.any(String), null]),
      target: expect.toBeOneOf([expect.any(String), null]),
      ip: expect.toBeOneOf([expect.any(String), null]),
    });
    for (const secret of [DASHBOARD_PASSWORD, "not-the-password"]) {
      expect(everything).not.toContain(secret);
      for (const line of logLines) expect(line).not.toContain(secret);
    }
  });

  it("admins read it newest first, filtered by group, action, member and day, paged; others get 403; bad filters 422", async () => {
    const owner = await buildOwner(env(), { company: { timezone: "Europe/Berlin" } });
    const member = await buildMember(env(), { company: owner.company });
    const dashboard = await buildDashboard(env(), { company: owner.company, name: "Filters" });
    await as(owner)("PUT", `/api/dashboards/${dashboard.id}`, { category: "refresh_permalink" });
    await as(owner)("POST", `/api/dashboards/${dashboard.id}/embed`, { days: 7 });
    await member.client.api("PUT", `/api/dashboards/${dashboard.id}`, { category: "refresh_permalink" });

    const list = async (query: string) => {
      const answer = await owner.client.api("GET", `/api/company/audit-log${query}`);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json() as { data: TAuditEvent[]; meta: Record<string, unknown> };
    };
    const all = await list("");
    expect(all.meta).toMatchObject({ currentPage: 1, total: 5, timezone: "Europe/Berlin" });
    expect(all.data[0]).toMatchObject({
      action: "dashboard.permalink_refreshed",
      group: "dashboards",
      actor: { id: member.user.id, name: "Mia Member" },
      description: "refreshed the public link of dashboard Filters",
      target: { type: "dashboard", id: dashboard.id, label: "Filters" },
    });
    expect(all.data.map((event) => event.at)).toEqual(
      all.data
        .map((event) => event.at)
        .sort()
        .reverse(),
    );
    expect((await list("?action=dashboards")).data.map((event) => event.action)).toEqual([
      "dashboard.permalink_refreshed",
      "dashboard.embed_created",
      "dashboard.permalink_refreshed",
    ]);
    expect((await list("?action=dashboard.embed_created")).data).toHaveLength(1);
    expect((await list(`?action=dashboards&actor=${owner.user.id}`)).data).toHaveLength(2);
    const paged = await list("?perPage=2&page=2");
    expect(paged.data.map((event) => event.id)).toEqual(all.data.slice(2, 4).map((event) => event.id));
    expect(paged.meta).toMatchObject({ lastPage: 3, total: 5 });
    const today = new Date().toISOString().slice(0, 10);
    expect((await list("?from=2001-01-01&to=2001-12-31")).data).toEqual([]);
    expect((await list(`?from=${today}`)).meta.total).toBeGreaterThanOrEqual(0);

    const bad = await owner.client.api("GET", "/api/company/audit-log?action=nope&from=yesterday&to=2001-01-01");
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(["action", "from"]);
    const backwards = await owner.client.api("GET", "/api/company/audit-log?from=2002-01-01&to=2001-01-01");
    expect(backwards.json().errors).toEqual({ to: ["The end date must not be before the start date."] });
    // A day the calendar lacks, which Date.parse would read as 2 March: a 422 on the list and the CSV.
    for (const path of ["/api/company/audit-log", "/api/company/audit-log/export"]) {
      const notADay = await owner.client.api("GET", `${path}?from=2025-02-30&to=2025-02-31`);
      expect(notADay.statusCode).toBe(422);
      expect(notADay.json().errors).toEqual({
        from: ["The date must be written YYYY-MM-DD."],
        to: ["The date must be written YYYY-MM-DD."],
      });
    }

    expect((await member.client.api("GET", "/api/company/audit-log")).statusCode).toBe(403);
    expect((await member.client.api("GET", "/api/company/audit-log/export")).statusCode).toBe(403);
    expect((await env().client().raw("GET", "/api/company/audit-log")).statusCode).toBe(401);
  });

  it("the CSV export: the same filter, every cell quoted, formula-like values made text", async () => {
    const owner = await buildOwner(env());
    const dashboard = await buildDashboard(env(), { company: owner.company, name: '=HYPERLINK("http://x","y")' });
    await as(owner)("PUT", `/api/dashboards/${dashboard.id}`, { category: "refresh_permalink" });
    const answer = await owner.client.api("GET", "/api/company/audit-log/export?action=dashboards");
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(answer.headers["content-disposition"]).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = answer.body.split("\r\n");
    expect(lines[0]).toBe('"Time (UTC)","Who","E-mail","Action","What","Target","Address","Browser"');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`"Olivia Owner","${owner.email}","dashboard.permalink_refreshed"`);
    expect(lines[1]).toContain('"refreshed the public link of dashboard =HYPERLINK(""http://x"",""y"")"');
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://x"",""y"")","127.0.0.1","${BROWSER}"`);
    expect(lines[2]).toBe("");
  });

  it("retention: the daily job deletes rows older than AUDIT_RETENTION_DAYS, and only those", async () => {
    const owner = await buildOwner(env());
    const repo = auditRepo(env().ctx.db);
    const now = env().ctx.clock.now().getTime();
    const row = (daysAgo: number): AuditEventsTable => ({
      id: newId(),
      company_id: owner.company.id,
      actor_id: null,
      actor_name: null,
      actor_email: null,
      action: "billing.canceled",
      target_type: null,
      target_id: null,
      target_label: `${daysAgo} days ago`,
      details: "{}",
      ip: null,
      user_agent: null,
      created_at: new Date(now - daysAgo * 86_400_000).toISOString(),
    });
    for (const days of [400, 366, 364, 10]) await repo.insert(row(days));
    expect(env().ctx.config.auditRetentionDays).toBe(365);
    const job = env().services.get("audit").retentionJob();
    expect(job.schedule).toEqual({ cron: "17 3 * * *" });
    await job.handle({}, { jobId: "test", attempt: 1, signal: new AbortController().signal });
    const left = (await rowsOf(env(), owner.company.id)).filter((r) => r.action === "billing.canceled");
    expect(left.map((r) => r.target_label)).toEqual(["364 days ago", "10 days ago"]);
  });
});

/** A mail server that refuses every "bounce-" address (a mailbox that does not exist). */
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

describeEachDb(
  "company audit log: an invitation whose e-mail fails",
  (env) => {
    it("leaves neither the invited member nor its audit row; a delivered one keeps both", async () => {
      const owner = await buildOwner(env());
      const failed = await as(owner)("POST", "/api/users", {
        name: "Bea Bounce",
        email: "bounce-new@example.com",
        roleName: "user",
      });
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
      // An address registered with another company: the neutral notice fails alike.
      const other = await buildOwner(env(), { user: { email: "bounce-elsewhere@example.com" } });
      const notice = await as(owner)("POST", "/api/users", {
        name: "Eli Elsewhere",
        email: other.email,
        roleName: "user",
      });
      expect(notice.statusCode).toBeGreaterThanOrEqual(500);
      const users = await env()
        .ctx.db.selectFrom("users")
        .select("email")
        .where("company_id", "=", owner.company.id)
        .execute();
      expect(users.map((u) => u.email)).toEqual([owner.email]);
      expect(await eventsOf(env(), owner, "member.")).toEqual([]);

      const delivered = await as(owner)("POST", "/api/users", {
        name: "Dee",
        email: "dee@example.com",
        roleName: "user",
      });
      expect(delivered.statusCode, delivered.body).toBe(200);
      expect(await eventsOf(env(), owner, "member.")).toEqual([
        ["member.invited", owner.email, "dee@example.com", { role: "user" }],
      ]);
      expect(sink.received.flatMap((mail) => mail.to)).toContain("dee@example.com");
    });
  },
  async () => {
    sink = await startSmtpSink({ refuse: (address) => address.startsWith("bounce-") });
    return { SMTP_URL: sink.url };
  },
);

afterAll(async () => {
  await sink?.close();
});
