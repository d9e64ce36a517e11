import { request as httpRequest } from "node:http";
import { afterAll, expect, it } from "vitest";
import { connectByConsent } from "../../../test/connector-scenarios/kit";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { liveRange } from "../../../test/ranges";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { seal, unseal } from "../../infra/security";
import { BASE_PREFIX, baseFake } from "./fake";
import { BASE_USER_AGENT } from "./oauth";

const fakes = fakesForFile(afterAll, () => ({ base: baseFake() }));
const fake = async () => (await fakes.current()).parts.base;
const calls = async () => (await fakes.current()).calls;
const baseCalls = async () => (await calls()).filter((call) => call.path.startsWith(BASE_PREFIX));

/** A source connected through the fake's consent, as the sources page's popup does; its id. */
const connect = (client: TestClient): Promise<string> => connectByConsent(client, "baseMe");

async function storedCredentials(env: TestEnv, sourceId: string) {
  const row = await env.ctx.db
    .selectFrom("sources")
    .select("credentials")
    .where("id", "=", sourceId)
    .executeTakeFirstOrThrow();
  return JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")) as Record<string, string>;
}

async function storeCredentials(env: TestEnv, sourceId: string, credentials: Record<string, string>) {
  await env.ctx.db
    .updateTable("sources")
    .set({ credentials: seal(env.ctx.config.appKey, JSON.stringify(credentials)) })
    .where("id", "=", sourceId)
    .execute();
}

const deals = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "baseMe.deals", { pipeline: "1", ...inputs });
const leads = (sourceId: string, inputs: Record<string, unknown>) => instance(sourceId, "baseMe.leads", inputs);

const OCTOBER = { startDate: "2026-10-01", endDate: "2026-10-31", comparison: false };
const OCTOBER_WEEK = { startDate: "2026-10-01", endDate: "2026-10-07", comparison: false };
const ALL = [
  "pipelineValue",
  "weightedValue",
  "openDeals",
  "wonValue",
  "wonDeals",
  "lostDeals",
  "winRate",
  "averageDealSize",
];

/** A request to the fake without any User-Agent (node:http adds none; fetch would add its own). */
function withoutUserAgent(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "GET" }, (response) => {
      let body = "";
      response.on("data", (chunk) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

describeEachDb(
  "Base.me (Base CRM) against a local Base",
  (env) => {
    it("connects through Base's consent screen: Basic client auth, a User-Agent on every call, the user as account", async () => {
      const { client } = await buildOwner(env());
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "baseMe")).toMatchObject({
        displayName: "Base.me",
        order: 19,
        authKind: "oauth2",
        available: true,
        note: null,
      });
      const before = (await baseCalls()).length;
      const { consent, result } = await connectOAuth(client, "baseMe");
      expect(result).toMatchObject({ ok: true, connector: "baseMe" });
      expect(consent.pathname).toBe(`${BASE_PREFIX}/oauth2/authorize`);
      expect(consent.searchParams.get("scope")).toBe("read profile");
      expect(consent.searchParams.get("client_id")).toBe((await fake()).clientId);
      const sources = (await client.api("GET", "/api/sources")).json().data;
      expect(sources).toEqual([expect.objectContaining({ id: result.sourceId, account: "Jane Doe", invalid: false })]);

      const seen = (await baseCalls()).slice(before).filter((call) => !call.path.endsWith("/oauth2/authorize"));
      const token = seen.find((call) => call.path === `${BASE_PREFIX}/oauth2/token`);
      const { clientId, clientSecret } = await fake();
      expect(token?.headers.authorization).toBe(
        `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
      );
      expect(Object.fromEntries(new URLSearchParams(token?.body ?? ""))).toMatchObject({
        grant_type: "authorization_code",
      });
      expect(token?.body).not.toContain("client_secret");
      expect(seen.map((call) => call.path)).toContain(`${BASE_PREFIX}/v2/users/self`);
      for (const call of seen) expect(call.headers["user-agent"]).toBe(BASE_USER_AGENT);
      const stored = await storedCredentials(env(), result.sourceId);
      expect(stored).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
      expect(Number(stored.expires_at)).toBeGreaterThan(Date.now() + 3500_000);

      // Base refuses a request without a User-Agent, and so does the fake.
      const bare = await withoutUserAgent(`${(await fakes.current()).url}${BASE_PREFIX}/v2/pipelines`);
      expect(bare.status).toBe(400);
      expect(JSON.parse(bare.body).errors[0].error.details).toBe("User-Agent header is missing");
    });

    it("a refused consent connects nothing and says so", async () => {
      const { client } = await buildOwner(env());
      (await fake()).deny = true;
      const { result } = await connectOAuth(client, "baseMe");
      expect(result).toMatchObject({
        ok: false,
        message: "You did not allow access to your Base.me account, so nothing was connected.",
      });
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
    });

    it("lists the pipelines that are not disabled", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const pipelines = await client.api("GET", `/api/sources/${id}/pipelines?type=baseMe.deals`);
      expect(pipelines.json().data).toEqual([
        { value: "1", label: "Sales" },
        { value: "2", label: "Partnerships" },
      ]);
      const call = (await baseCalls()).findLast((entry) => entry.path === `${BASE_PREFIX}/v2/pipelines`);
      expect(call?.query).toEqual({ page: "1", per_page: "100" });
    });

    it("pipeline value, deals won and rates: open deals by their added day, won and lost by their closing stage change", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const response = await widgetData(client, [deals(id, { metrics: ALL })], OCTOBER);
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.metrics).toEqual([
        { key: "a.pipelineValue", label: "Pipeline value", format: "money", currency: "EUR" },
        { key: "a.weightedValue", label: "Weighted pipeline value", format: "money", currency: "EUR" },
        { key: "a.openDeals", label: "Open deals", format: "number" },
        { key: "a.wonValue", label: "Won value", format: "money", currency: "EUR" },
        { key: "a.wonDeals", label: "Won deals", format: "number" },
        { key: "a.lostDeals", label: "Lost deals", format: "number" },
        { key: "a.winRate", label: "Win rate", format: "percent" },
        { key: "a.averageDealSize", label: "Average won deal size", format: "money", currency: "EUR" },
      ]);
      // Open (added in October): Globex 8,000 and Hooli 7,000 at Qualified's 50 %, Initech 5,000 at
      // Incoming's 10 %. Won in October: Acme 12,000 and Wayne 4,000 in euros, Stark's 9,000 dollars
      // counted but not added; Oscorp, won in November, is not in. Lost: Umbrella.
      expect(table.totals).toEqual([20000, 8000, 3, 16000, 3, 1, 75, 8000]);
      // Base was asked for each stage's deals, a page of 100 at a time, with the User-Agent.
      const asked = (await baseCalls()).filter((call) => call.path === `${BASE_PREFIX}/v2/deals`).slice(-5);
      expect(asked.map((call) => call.query.stage_id).sort()).toEqual(["11", "11", "12", "13", "14"]);
      expect(asked[0]?.query).toMatchObject({ per_page: "100", sort_by: "id" });
      expect(asked[0]?.headers["user-agent"]).toBe(BASE_USER_AGENT);
    });

    it("by stage (every stage in order), by owner (names from /users) and by day", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const byStage = (
        await widgetData(client, [deals(id, { dimension: "stage", metrics: ["pipelineValue", "wonDeals"] })], OCTOBER)
      ).json().data.current;
      expect(byStage.dimension).toEqual({ key: "stage", label: "Stage", kind: "string" });
      expect(byStage.rows).toEqual([
        { dimension: "Incoming", values: [5000, 0] },
        { dimension: "Qualified", values: [15000, 0] },
        { dimension: "Won", values: [0, 3] },
        { dimension: "Lost", values: [0, 0] },
      ]);
      const byOwner = (
        await widgetData(client, [deals(id, { dimension: "owner", metrics: ["wonValue", "winRate"] })], OCTOBER)
      ).json().data.current;
      expect(byOwner.rows).toEqual([
        { dimension: "Jane Doe", values: [12000, 100] },
        { dimension: "No owner", values: [0, null] },
        { dimension: "Tom Lee", values: [4000, 50] },
      ]);
      expect(byOwner.totals).toEqual([16000, 75]);
      const byDay = (
        await widgetData(client, [deals(id, { dimension: "date", metrics: ["wonDeals"] })], OCTOBER_WEEK)
      ).json().data.current;
      expect(byDay.dimension).toEqual({ key: "date", label: "Date", kind: "date" });
      expect(byDay.rows.map((row: { values: number[] }) => row.values[0])).toEqual([0, 1, 1, 0, 0, 0, 1]);
    });

    it("reads every page of a busy stage", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const before = (await baseCalls()).length;
      const response = await widgetData(client, [deals(id, { metrics: ["openDeals", "pipelineValue"] })], {
        startDate: "2026-09-01",
        endDate: "2026-09-30",
        comparison: false,
      });
      expect(response.json().data.current.totals).toEqual([150, 15000]);
      const pages = (await baseCalls())
        .slice(before)
        .filter((call) => call.path === `${BASE_PREFIX}/v2/deals` && call.query.stage_id === "11")
        .map((call) => call.query.page);
      expect(pages).toEqual(["1", "2"]);
    });

    it("new leads per day, by owner and by status; newest first, paging stops before the range", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const byDay = (
        await widgetData(client, [leads(id, { dimension: "date", metrics: ["newLeads"] })], OCTOBER_WEEK)
      ).json().data.current;
      expect(byDay.metrics).toEqual([{ key: "a.newLeads", label: "New leads", format: "number" }]);
      expect(byDay.rows.map((row: { values: number[] }) => row.values[0])).toEqual([4, 4, 4, 4, 4, 4, 4]);
      expect(byDay.totals).toEqual([28]);
      const byOwner = (
        await widgetData(client, [leads(id, { dimension: "owner", metrics: ["newLeads"] })], OCTOBER_WEEK)
      ).json().data.current;
      expect(byOwner.rows).toEqual([
        { dimension: "Jane Doe", values: [14] },
        { dimension: "No owner", values: [5] },
        { dimension: "Tom Lee", values: [9] },
      ]);
      const byStatus = (
        await widgetData(client, [leads(id, { dimension: "status", metrics: ["newLeads"] })], OCTOBER_WEEK)
      ).json().data.current;
      expect(byStatus.rows).toEqual([
        { dimension: "New", values: [21] },
        { dimension: "Working", values: [7] },
      ]);
      // The last days of October are on the first page: Base is not asked for the second.
      const before = (await baseCalls()).length;
      const late = await widgetData(client, [leads(id, { dimension: "date", metrics: ["newLeads"] })], {
        startDate: "2026-10-25",
        endDate: "2026-10-30",
        comparison: false,
      });
      expect(late.json().data.current.totals).toEqual([24]);
      const pages = (await baseCalls()).slice(before).filter((call) => call.path === `${BASE_PREFIX}/v2/leads`);
      expect(pages.map((call) => call.query)).toEqual([{ sort_by: "created_at:desc", page: "1", per_page: "100" }]);
    });

    it("days are the dashboard's: leads created after midnight UTC belong to the day before in New York", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const ask = (timezone: string) =>
        client.api("POST", "/api/widgets/data", {
          instances: [leads(id, { dimension: "date", metrics: ["newLeads"] })],
          timezone,
          startDate: "2026-10-29",
          endDate: "2026-10-30",
          comparison: false,
        });
      const utc = (await ask("UTC")).json().data.current;
      expect(utc.rows.map((row: { values: number[] }) => row.values[0])).toEqual([4, 4]);
      const newYork = (await ask("America/New_York")).json().data.current;
      expect(newYork.rows.map((row: { values: number[] }) => row.values[0])).toEqual([4, 0]);
    });

    it("an expired access token is refreshed (Basic auth, User-Agent) and the new tokens are stored", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const stored = await storedCredentials(env(), id);
      (await fake()).expireAccessTokens();
      await storeCredentials(env(), id, { ...stored, expires_at: "0" });
      const refreshes = (await fake()).refreshes;
      // With the comparison period, two queries find the token expired at once: one refresh serves both.
      const response = await widgetData(client, [deals(id, { metrics: ["openDeals"] })], {
        ...OCTOBER,
        comparison: true,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.current.totals).toEqual([3]);
      expect((await fake()).refreshes).toBe(refreshes + 1);
      const renewed = await storedCredentials(env(), id);
      expect(renewed.access_token).not.toBe(stored.access_token);
      expect(renewed.refresh_token).toBe(stored.refresh_token);
      expect(Number(renewed.expires_at)).toBeGreaterThan(Date.now());
      const refresh = (await baseCalls()).findLast(
        (call) => call.path === `${BASE_PREFIX}/oauth2/token` && call.body.includes("refresh_token"),
      );
      expect(refresh?.headers["user-agent"]).toBe(BASE_USER_AGENT);
      expect(refresh?.headers.authorization).toMatch(/^Basic /);
      expect(Object.fromEntries(new URLSearchParams(refresh?.body ?? ""))).toEqual({
        grant_type: "refresh_token",
        refresh_token: stored.refresh_token,
      });
    });

    it("Base refusing the widget's settings is the form's 422 in Base's words; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      (await fake()).failNext.push({
        status: 422,
        pathIncludes: "/v2/deals",
        body: {
          errors: [{ error: { code: "invalid_param", message: "Invalid parameter", details: "stage_id is invalid" } }],
          meta: { type: "errors", http_status: "422 Unprocessable Entity" },
        },
      });
      const refused = await widgetData(client, [deals(id, { metrics: ["openDeals"] })], OCTOBER);
      expect(refused.statusCode).toBe(422);
      expect(JSON.stringify(refused.json())).toContain("Invalid parameter: stage_id is invalid");
      const gone = await widgetData(client, [deals(id, { pipeline: "9", metrics: ["openDeals"] })], OCTOBER);
      expect(gone.statusCode).toBe(422);
      expect(JSON.stringify(gone.json())).toContain("this pipeline is no longer in Base");
      const missing = await widgetData(client, [deals(id, { pipeline: "", metrics: ["openDeals"] })], OCTOBER);
      expect(missing.statusCode).toBe(422);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      (await fake()).failNext.length = 0;
    });

    // Base down (503) or limiting (429): the stored numbers with a notice, ./scenarios.test.ts.
    it("a revoked access token makes the source invalid (banner 125); cold, the widget is a 502", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      (await fake()).revoked.add((await storedCredentials(env(), id)).access_token ?? "");
      const refused = await widgetData(client, [deals(id, { metrics: ["lostDeals"] })], {
        ...liveRange(),
        comparison: false,
      });
      // Nothing stored to fall back on: a provider failure, not the server's.
      expect(refused.statusCode).toBe(502);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
      expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
    });

    it("a settled range is served from the database without asking Base again", async () => {
      const { client, company } = await buildOwner(env());
      const id = await connect(client);
      const sources = env().services.get("sources");
      const request = {
        type: "baseMe.deals",
        inputs: { dimension: "owner", metrics: ["openDeals"], pipeline: "1" },
        range: { startDate: "2026-08-01", endDate: "2026-08-31" },
        timezone: "UTC",
      };
      const asked = async () => (await baseCalls()).filter((call) => call.path === `${BASE_PREFIX}/v2/deals`).length;
      const first = await sources.query(company.id, await sources.load(company.id, id), request);
      expect(first.notice).toBeNull();
      const before = await asked();
      const again = await sources.query(company.id, await sources.load(company.id, id), request);
      expect(again.table).toEqual(first.table);
      expect(await asked()).toBe(before);
    });
  },
  fakes.env,
);
