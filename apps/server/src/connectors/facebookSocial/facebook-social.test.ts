import { afterAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, startTestEnv, type TestClient, type TestEnv } from "../../../test/harness";
import { liveRange } from "../../../test/ranges";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { seal, unseal } from "../../infra/security";
import { fakePageValue, META_BUSINESS, META_BUSINESS_PAGES, META_PAGES, META_USER, metaFake } from "../meta/fake";
import { dayOfEndTime, windows } from "../meta/pages";

const fakes = fakesForFile(afterAll, () => ({ meta: metaFake() }));
const meta = async () => (await fakes.current()).parts.meta;
const calls = async () => (await fakes.current()).calls;

const BAKERY = META_PAGES[0].id;

const pageInsights = (sourceId: string, inputs: Record<string, unknown>, overrides: Record<string, unknown> = {}) =>
  instance(sourceId, "facebookSocial.insights", { property: BAKERY, ...inputs }, overrides);

async function storedCredentials(env: TestEnv, sourceId: string) {
  const row = await env.ctx.db
    .selectFrom("sources")
    .select("credentials")
    .where("id", "=", sourceId)
    .executeTakeFirstOrThrow();
  return JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")) as Record<string, string>;
}

const connect = (client: TestClient, body: Record<string, unknown> = {}) =>
  connectOAuth(client, "facebookSocial", body);

const sum = (days: string[], metric: string, page: string) =>
  days.reduce((total, day) => total + fakePageValue(metric, day, page), 0);

describe("Meta's daily values and windows", () => {
  it("a value stamped with the end of its day (Pacific, summer or winter; Berlin; Tokyo) belongs to that day", () => {
    expect(dayOfEndTime("2026-10-02T07:00:00+0000")).toBe("2026-10-01");
    expect(dayOfEndTime("2026-11-02T08:00:00+0000")).toBe("2026-11-01");
    expect(dayOfEndTime("2026-10-01T22:00:00+0000")).toBe("2026-10-01");
    expect(dayOfEndTime("2026-10-01T15:00:00+0000")).toBe("2026-10-01");
  });

  it("a range is cut into windows of at most 90 days, until being the day after each window's last", () => {
    expect(windows("2026-01-01", "2026-05-15", 90)).toEqual([
      { since: "2026-01-01", until: "2026-04-01" },
      { since: "2026-04-01", until: "2026-05-16" },
    ]);
    expect(windows("2026-10-01", "2026-10-01", 90)).toEqual([{ since: "2026-10-01", until: "2026-10-02" }]);
  });
});

describe("Facebook Social without a Meta app on this server", () => {
  it("is listed as not configured, naming the variables", async () => {
    const env = await startTestEnv("sqlite");
    try {
      const { client } = await buildOwner(env);
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "facebookSocial")).toMatchObject({
        available: false,
        note: "Not configured on this server (set META_APP_ID and META_APP_SECRET).",
      });
      expect((await client.api("POST", "/api/oauth/facebookSocial/start", {})).statusCode).toBe(422);
    } finally {
      await env.close();
    }
  });
});

describeEachDb(
  "Facebook Social against a local Meta",
  (env) => {
    it("connects through Meta's consent: the code's token is swapped for a long-lived one, stored sealed with its expiry", async () => {
      const { client } = await buildOwner(env());
      const fake = await meta();
      const before = (await calls()).length;
      const { consent, result } = await connect(client);
      expect(consent.origin + consent.pathname).toBe(`${(await fakes.current()).url}/v25.0/dialog/oauth`);
      expect(consent.searchParams.get("scope")).toBe(
        "pages_show_list,pages_read_engagement,read_insights,business_management",
      );
      expect(consent.searchParams.get("response_type")).toBe("code");
      expect(consent.searchParams.get("client_id")).toBe(fake.appId);
      // Meta takes no PKCE for a web app with a secret.
      expect(consent.searchParams.get("code_challenge")).toBeNull();
      expect(result).toMatchObject({ ok: true, connector: "facebookSocial", message: null });

      const tokenCalls = (await calls()).slice(before).filter((call) => call.path === "/v25.0/oauth/access_token");
      expect(tokenCalls).toHaveLength(2);
      expect(tokenCalls[0]?.method).toBe("GET");
      expect(tokenCalls[0]?.query).toMatchObject({ client_id: fake.appId, client_secret: fake.appSecret });
      expect(tokenCalls[0]?.query.code).toMatch(/^AQfakeCode/);
      expect(tokenCalls[1]?.query).toMatchObject({
        grant_type: "fb_exchange_token",
        client_id: fake.appId,
        client_secret: fake.appSecret,
        fb_exchange_token: expect.stringMatching(/^EAAfakeShort/),
      });
      const stored = await storedCredentials(env(), result.sourceId);
      expect(stored.access_token).toMatch(/^EAAfakeLong/);
      expect(stored.user_id).toBe(META_USER.id);
      const days = (Number(stored.expires_at) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(59);
      expect(days).toBeLessThan(61);
      const sources = (await client.api("GET", "/api/sources")).json().data;
      expect(sources).toEqual([
        expect.objectContaining({
          id: result.sourceId,
          name: "facebookSocial",
          account: META_USER.name,
          invalid: false,
        }),
      ]);
      expect(JSON.stringify(sources)).not.toContain("EAAfake");
    });

    it("says in words why nothing was connected when the user refuses Meta's consent", async () => {
      const { client } = await buildOwner(env());
      (await meta()).deny = true;
      const denied = await connect(client);
      expect(denied.back.searchParams.get("error_reason")).toBe("user_denied");
      expect(denied.result).toMatchObject({ ok: false, sourceId: null });
      expect(denied.page.body).toContain("You did not allow access to your Facebook Social account");
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
    });

    it("the Page picker lists every Page of the login, following Meta's cursors", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const before = (await calls()).length;
      const pages = await client.api("GET", `/api/sources/${result.sourceId}/properties`);
      expect(pages.json().data).toEqual([
        { value: META_PAGES[0].id, label: "Acme Bakery" },
        { value: META_PAGES[2].id, label: "Acme Careers" },
        { value: META_PAGES[1].id, label: "Acme Shoes" },
        { value: META_BUSINESS_PAGES[0].id, label: "Northwind Dental" },
      ]);
      const asked = (await calls()).slice(before).filter((call) => call.path === "/v25.0/me/accounts");
      expect(asked).toHaveLength(2);
      expect(asked[0]?.query.fields).toBe("id,name,access_token,instagram_business_account{id,username}");
      expect(asked[0]?.headers.authorization).toMatch(/^Bearer EAAfakeLong/);
      expect(asked[0]?.query.appsecret_proof).toMatch(/^[0-9a-f]{64}$/);
      expect(asked[1]?.query.after).toBeTruthy();
    });

    it("lists the Pages an agency reaches through a client's Business portfolio and reads them with their Page token; a login without business_management keeps its own Pages", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const before = (await calls()).length;
      const pages = (await client.api("GET", `/api/sources/${result.sourceId}/properties`)).json().data;
      const dental = META_BUSINESS_PAGES[0];
      expect(pages).toContainEqual({ value: dental.id, label: "Northwind Dental" });
      // Acme Bakery is both a Page role of the user's and the portfolio's own Page: listed once.
      expect(pages.filter((page: { value: string }) => page.value === META_PAGES[0].id)).toHaveLength(1);
      const paths = (await calls()).slice(before).map((call) => call.path);
      expect(paths).toEqual(
        expect.arrayContaining([
          "/v25.0/me/businesses",
          `/v25.0/${META_BUSINESS.id}/owned_pages`,
          `/v25.0/${META_BUSINESS.id}/client_pages`,
        ]),
      );
      const range = { startDate: "2026-10-01", endDate: "2026-10-03" };
      const widget = instance(result.sourceId, "facebookSocial.insights", {
        property: dental.id,
        metrics: ["page_media_view"],
      });
      const response = await widgetData(client, [widget], range);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.current.totals).toEqual([
        sum(["2026-10-01", "2026-10-02", "2026-10-03"], "page_media_view", dental.id),
      ]);

      // The user unticks business_management at Meta's consent: Meta refuses the portfolios (#200), and
      // the picker still lists the login's own Pages, the source valid.
      const fake = await meta();
      fake.declined.add("business_management");
      try {
        const { client: other } = await buildOwner(env());
        const partial = await connect(other);
        const own = await other.api("GET", `/api/sources/${partial.result.sourceId}/properties`);
        expect(own.statusCode).toBe(200);
        expect(own.json().data.map((page: { value: string }) => page.value)).toEqual([
          META_PAGES[0].id,
          META_PAGES[2].id,
          META_PAGES[1].id,
        ]);
        expect((await other.api("GET", "/api/sources")).json().data[0]).toMatchObject({ invalid: false });
      } finally {
        fake.declined.clear();
      }

      // A portfolio whose client Pages this user may not read (#200 on that list): its own Pages still come.
      fake.lockedEdges.add("client_pages");
      try {
        const { client: employee } = await buildOwner(env());
        const limited = await connect(employee);
        const listed = await employee.api("GET", `/api/sources/${limited.result.sourceId}/properties`);
        expect(listed.statusCode, listed.body).toBe(200);
        const values = listed.json().data.map((page: { value: string }) => page.value);
        expect(values).toContain(META_PAGES[0].id);
        expect(values).not.toContain(dental.id);
        expect((await employee.api("GET", "/api/sources")).json().data[0]).toMatchObject({ invalid: false });
      } finally {
        fake.lockedEdges.clear();
      }
    });

    it("numbers by day with the Page token: end_time mapped to the day it ends, across the change to winter time; totals per metric", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const before = (await calls()).length;
      const range = { startDate: "2026-10-29", endDate: "2026-11-03" };
      const metrics = [
        "page_media_view",
        "page_follows",
        "page_total_media_view_unique",
        "page_daily_unfollows_unique",
      ];
      const response = await widgetData(client, [pageInsights(result.sourceId, { dimension: "date", metrics })], range);
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.dimension).toEqual({ key: "date", label: "Date", kind: "date" });
      expect(table.metrics).toEqual([
        { key: "a.page_media_view", label: "Views", format: "number" },
        { key: "a.page_follows", label: "Followers", format: "number" },
        { key: "a.page_total_media_view_unique", label: "Viewers (daily)", format: "number" },
        { key: "a.page_daily_unfollows_unique", label: "Unfollows", format: "number", lowerIsBetter: true },
      ]);
      const days = ["2026-10-29", "2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02", "2026-11-03"];
      expect(table.rows).toEqual(
        days.map((day) => ({ dimension: day, values: metrics.map((metric) => fakePageValue(metric, day, BAKERY)) })),
      );
      // Views add up; followers are a stock (the last day's count); daily unique viewers have no range total.
      expect(table.totals).toEqual([
        sum(days, "page_media_view", BAKERY),
        fakePageValue("page_follows", "2026-11-03", BAKERY),
        null,
        sum(days, "page_daily_unfollows_unique", BAKERY),
      ]);
      const asked = (await calls())
        .slice(before)
        .filter((call) => call.path === `/v25.0/${BAKERY}/insights` && call.query.since === "2026-10-29");
      expect(asked).toHaveLength(1);
      expect(asked[0]?.query).toMatchObject({ metric: metrics.join(","), period: "day", until: "2026-11-04" });
      expect(asked[0]?.headers.authorization).toBe(`Bearer EAAfakePage${BAKERY}u${META_USER.id}`);
    });

    it("a range longer than 90 days is asked in two windows and joined", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const before = (await calls()).length;
      const range = { startDate: "2026-01-01", endDate: "2026-05-15" };
      const response = await widgetData(
        client,
        [pageInsights(result.sourceId, { dimension: "date", metrics: ["page_post_engagements"] })],
        range,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      const asked = (await calls())
        .slice(before)
        .filter((call) => call.path === `/v25.0/${BAKERY}/insights` && call.query.since?.startsWith("2026-0"));
      expect(asked.map((call) => [call.query.since, call.query.until])).toEqual([
        ["2026-01-01", "2026-04-01"],
        ["2026-04-01", "2026-05-16"],
      ]);
      expect(table.rows).toHaveLength(135);
      expect(table.rows[89]).toEqual({
        dimension: "2026-03-31",
        values: [fakePageValue("page_post_engagements", "2026-03-31", BAKERY)],
      });
      expect(table.rows[90]).toEqual({
        dimension: "2026-04-01",
        values: [fakePageValue("page_post_engagements", "2026-04-01", BAKERY)],
      });
      const total = table.rows.reduce((acc: number, row: { values: number[] }) => acc + (row.values[0] ?? 0), 0);
      expect(table.totals).toEqual([total]);
    });

    it("a metric Meta removed is the form's error in Meta's words; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      for (const removed of ["page_impressions", "page_fans"]) {
        const refused = await widgetData(client, [pageInsights(result.sourceId, { metrics: [removed] })]);
        expect(refused.statusCode).toBe(422);
        expect(JSON.stringify(refused.json())).toContain("(#100) The value must be a valid insights metric");
      }
      const page = await widgetData(client, [pageInsights(result.sourceId, { metrics: [] })]);
      expect(page.statusCode).toBe(422);
      expect(JSON.stringify(page.json())).toContain("The metrics field is required.");
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("a settled range is served from the database without asking Meta again", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const request = {
        type: "facebookSocial.insights",
        inputs: { property: BAKERY, metrics: ["page_views_total"] },
        range: { startDate: "2026-09-01", endDate: "2026-09-30" },
        timezone: "UTC",
      };
      const asked = async () =>
        (await calls()).filter(
          (call) =>
            call.path === `/v25.0/${BAKERY}/insights` &&
            call.query.since === "2026-09-01" &&
            call.query.metric === "page_views_total",
        ).length;
      const before = await asked();
      const first = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(first.table.totals).toEqual([
        sum(
          Array.from({ length: 30 }, (_, i) => `2026-09-${String(i + 1).padStart(2, "0")}`),
          "page_views_total",
          BAKERY,
        ),
      ]);
      expect(await asked()).toBe(before + 1);
      const again = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(again.table).toEqual(first.table);
      expect(await asked()).toBe(before + 1);
    });

    it("the app's usage at 96 % on a successful answer holds every Meta call of the app; the next query is served stored", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const range = liveRange();
      const inputs = { metrics: ["page_views_total"], property: BAKERY };
      (await meta()).usageNext.push({
        pathIncludes: `/${BAKERY}/insights`,
        headers: { "x-app-usage": JSON.stringify({ call_count: 96, total_cputime: 10, total_time: 12 }) },
      });
      const counters = env().ctx.rateLimits;
      try {
        const stored = await sources.query(company.id, await sources.load(company.id, result.sourceId), {
          type: "facebookSocial.insights",
          inputs,
          range,
          timezone: "UTC",
        });
        expect(stored.notice).toBeNull();
        expect((await meta()).usageNext).toEqual([]);
        const fetchedAt = new Date(Date.now() - 20 * 60_000).toISOString();
        await env()
          .ctx.db.updateTable("provider_results")
          .set({ fetched_at: fetchedAt })
          .where("source_id", "=", result.sourceId)
          .execute();
        const before = (await calls()).length;
        const response = await widgetData(client, [instance(result.sourceId, "facebookSocial.insights", inputs)], {
          ...range,
          comparison: false,
        });
        expect(response.statusCode).toBe(200);
        const data = response.json().data;
        expect(data.current.totals).toEqual(stored.table.totals);
        expect(data.notices).toEqual([
          { instanceId: expect.any(String), asOf: fetchedAt, message: "Facebook Social is limiting requests" },
        ]);
        expect((await calls()).length).toBe(before);
        // The hold is the app's (every Meta connector of this server), kept in the counters every process shares.
        expect(await counters.peek("provider:meta:hold:app")).toBeGreaterThan(0);
        expect(await counters.peek(`provider:meta:hold:key:page:${BAKERY}`)).toBe(0);
        expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      } finally {
        // The app-wide hold would starve the file's other tests for five minutes.
        await counters.reset("provider:meta:hold:app");
      }
    });

    it("a dead token (code 190) makes the source invalid with banner 125; an expired 60-day token too; reconnecting fixes it", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const fake = await meta();
      const range = { startDate: "2026-10-01", endDate: "2026-10-03" };
      fake.revoked.add(META_USER.id);
      try {
        const failed = await widgetData(
          client,
          [pageInsights(result.sourceId, { metrics: ["page_media_view"] })],
          range,
        );
        expect(failed.statusCode).toBe(502);
        expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
        expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
      } finally {
        fake.revoked.delete(META_USER.id);
      }
      const again = await connect(client, { source_id: result.sourceId });
      expect(again.result).toMatchObject({ ok: true, sourceId: result.sourceId });
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);

      // Sixty days later Meta's token has expired: no refresh exists, the user must reconnect.
      const stored = await storedCredentials(env(), result.sourceId);
      await env()
        .ctx.db.updateTable("sources")
        .set({
          credentials: seal(
            env().ctx.config.appKey,
            JSON.stringify({ ...stored, expires_at: String(Date.now() - 1000) }),
          ),
        })
        .where("id", "=", result.sourceId)
        .execute();
      const expired = await client.api("GET", `/api/sources/${result.sourceId}/properties`);
      expect(expired.statusCode).toBe(502);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
    });

    it("deleting the source gives the grant back to Meta (DELETE /me/permissions)", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const fake = await meta();
      const stored = await storedCredentials(env(), result.sourceId);
      try {
        expect((await client.api("DELETE", `/api/sources/${result.sourceId}`)).statusCode).toBe(204);
        const revoke = (await calls()).filter(
          (call) => call.method === "DELETE" && call.path === "/v25.0/me/permissions",
        );
        expect(revoke.at(-1)?.headers.authorization).toBe(`Bearer ${stored.access_token}`);
        expect(fake.revoked.has(META_USER.id)).toBe(true);
        expect(fake.userOf(stored.access_token ?? "")).toBeNull();
      } finally {
        fake.revoked.delete(META_USER.id);
      }
    });
  },
  fakes.env,
);
