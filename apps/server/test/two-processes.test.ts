import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { createDemoSource, dataRequest, demoInstance } from "../src/features/widgets/test-helpers";
import { type App, GUEST_COOKIE, SESSION_COOKIE } from "../src/infra/http";
import { dbTargets, inviteAndJoin, startTestEnv, type TestClient, type TestEnv } from "./harness";

/**
 * Two apps over the SAME database, event bus and rate-limit store, each with its own in-process
 * caches (answers, tables, sessions) and its own @fastify/rate-limit plugin: two processes as far
 * as everything this issue moved onto the infrastructure is concerned.
 */
async function secondProcess(env: TestEnv): Promise<App> {
  const app = await buildApp(env.ctx, { webDist: path.join(env.dataDir, "no-web-dist") });
  await app.ready();
  return app;
}

/** The same browser (cookies and page identification) talking to another process. */
function asSameBrowser(app: App, client: TestClient) {
  return (
    method: "GET" | "POST" | "PUT" | "DELETE",
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const cookies = [SESSION_COOKIE, GUEST_COOKIE]
      .map((name) => [name, client.cookie(name)])
      .filter(([, value]) => value)
      .map(([name, value]) => `${name}=${value}`)
      .join("; ");
    return app.inject({
      method,
      url,
      headers: {
        cookie: cookies,
        "x-requested-with": "XMLHttpRequest",
        "x-identification": client.identification,
        ...headers,
      },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
  };
}

for (const target of dbTargets()) {
  describe(`two processes behave as one [${target}]`, () => {
    let env: Awaited<ReturnType<typeof startTestEnv>>;
    let other: App;
    beforeAll(async () => {
      env = await startTestEnv(target);
      other = await secondProcess(env);
    });
    afterAll(async () => {
      await other.close();
      await env.close();
    });

    it("a source change through one process invalidates the widget answers cached by the other", async () => {
      const owner = env.client();
      await owner.signUpAndPassIntro();
      const sourceId = await createDemoSource(owner);
      const onOther = asSameBrowser(other, owner);
      const request = dataRequest([demoInstance(sourceId)]);
      const first = await onOther("POST", "/api/widgets/data", request);
      expect(first.statusCode).toBe(200);
      // Cached on the other process now.
      expect((await onOther("POST", "/api/widgets/data", request)).rawPayload.equals(first.rawPayload)).toBe(true);
      expect((await owner.api("DELETE", `/api/sources/${sourceId}`)).statusCode).toBeLessThan(300);
      // Without the event, the other process would still answer from its answer cache.
      expect((await onOther("POST", "/api/widgets/data", request)).statusCode).toBe(404);
    });

    it("a logout on one process is refused on the other at once", async () => {
      const owner = env.client();
      await owner.signUpAndPassIntro();
      const onOther = asSameBrowser(other, owner);
      // The other process has the session in its session cache.
      expect((await onOther("GET", "/api/company")).statusCode).toBe(200);
      expect((await onOther("GET", "/api/company")).statusCode).toBe(200);
      const session = { [SESSION_COOKIE]: owner.cookie(SESSION_COOKIE) };
      expect(
        (await owner.raw("POST", "/logout", { headers: { "x-requested-with": "XMLHttpRequest" } })).statusCode,
      ).toBeLessThan(400);
      const started = Date.now();
      const after = await other.inject({
        method: "GET",
        url: "/api/company",
        headers: { cookie: `${SESSION_COOKIE}=${session[SESSION_COOKIE]}`, "x-requested-with": "XMLHttpRequest" },
      });
      expect(after.statusCode).toBe(401);
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it("a role change on one process reaches the sessions cached by the other", async () => {
      const admin = env.client();
      await admin.signUpAndPassIntro();
      const member = await inviteAndJoin(() => env, admin, "admin");
      const memberId = (await member.pageData()).user.id;
      const onOther = asSameBrowser(other, member);
      expect((await onOther("GET", "/api/users")).statusCode).toBe(200);
      const changed = await admin.api("PUT", `/api/users/${memberId}`, { roleName: "user" });
      expect(changed.statusCode).toBe(200);
      expect((await onOther("GET", "/api/users")).statusCode).toBe(403);
    });

    it("wrong dashboard passwords spread over both processes share one budget", async () => {
      const owner = env.client();
      await owner.signUpAndPassIntro();
      const created = await owner.api("POST", "/api/dashboards", { name: "Guarded", template: "website-overview" });
      const permalink = created.json().data.permalink;
      const dashboard = (await owner.api("GET", `/api/dashboards/${permalink}`)).json().data;
      await owner.api("PUT", `/api/dashboards/${dashboard.id}`, { category: "new_password", password: "right-one" });
      const guest = env.client();
      await guest.pageData();
      const onOther = asSameBrowser(other, guest);
      const range = { startDate: "2026-10-01", endDate: "2026-10-31" };
      const url = `/api/dashboards/${permalink}/widgets/${dashboard.widgets[0].id}/data`;
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const headers = { "x-authorization": `guess-${i}` };
        const response =
          i % 2 ? await onOther("POST", url, range, headers) : await guest.api("POST", url, range, headers);
        statuses.push(response.statusCode);
      }
      expect(statuses.every((s) => s === 422)).toBe(true);
      // Five wrong guesses on each: alone, neither process would have reached the limit of ten.
      expect(
        (await onOther("GET", `/api/dashboards/${permalink}`, undefined, { "x-authorization": "right-one" }))
          .statusCode,
      ).toBe(429);
      expect(
        (await guest.raw("GET", `/api/dashboards/${permalink}`, { headers: { "x-authorization": "right-one" } }))
          .statusCode,
      ).toBe(429);
    });
  });

  describe(`login limits across two processes [${target}]`, () => {
    it("login attempts spread over two processes hit 429 at the same count as on one", async () => {
      const env = await startTestEnv(target, { RATE_LIMIT_AUTH_MAX: "3" });
      const other = await secondProcess(env);
      try {
        const apps = [env.app, other];
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++) {
          const response = await apps[i % 2].inject({
            method: "POST",
            url: "/login",
            payload: { email: "nobody@example.com", password: "whatever-pass" },
            headers: { "x-requested-with": "XMLHttpRequest" },
          });
          statuses.push(response.statusCode);
        }
        expect(statuses).toEqual([422, 422, 422, 429, 429]);
      } finally {
        await other.close();
        await env.close();
      }
    });
  });
}
