import { afterAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { liveRange } from "../../../test/ranges";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { unseal } from "../../infra/security";
import {
  type FakeTikTokUnit,
  fakeTikTokUnits,
  TIKTOK_ADVERTISERS,
  TIKTOK_FOREIGN_ADVERTISER,
  tiktokFake,
} from "./fake";
import { classifyTikTok } from "./oauth";

const fakes = fakesForFile(afterAll, () => ({ tiktok: tiktokFake() }));
const fake = async () => (await fakes.current()).parts.tiktok;
const calls = async () => (await fakes.current()).calls;

const [SHOP, LEADS, OLD] = TIKTOK_ADVERTISERS.map((advertiser) => advertiser.id) as [string, string, string];
const REPORT = "/open_api/v1.3/report/integrated/get/";

const report = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "tiktok.report", { property: SHOP, ...inputs });

async function connect(client: TestClient) {
  const connected = await connectOAuth(client, "tiktok");
  expect(connected.result).toMatchObject({ ok: true, connector: "tiktok" });
  return connected;
}

async function credentialsOf(env: TestEnv, sourceId: string): Promise<Record<string, string>> {
  const row = await env.ctx.db
    .selectFrom("sources")
    .select("credentials")
    .where("id", "=", sourceId)
    .executeTakeFirstOrThrow();
  return JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")) as Record<string, string>;
}

function sums(units: readonly FakeTikTokUnit[]) {
  const sum = (pick: (unit: FakeTikTokUnit) => number) => units.reduce((total, unit) => total + pick(unit), 0);
  return {
    spend: sum((unit) => unit.spendCents) / 100,
    impressions: sum((unit) => unit.impressions),
    clicks: sum((unit) => unit.clicks),
    conversion: sum((unit) => unit.conversion),
    likes: sum((unit) => unit.likes),
  };
}

const reportCalls = async (advertiser: string) =>
  (await calls()).filter((call) => call.path === REPORT && call.query.advertiser_id === advertiser);

/** TikTok's answer to a failure: HTTP 200 and a code (the envelope of every TikTok error). */
const tiktokError = (code: number, message: string, pathIncludes = REPORT) => ({
  status: 200,
  pathIncludes,
  body: { code, message, request_id: "2026112610000000FAULT", data: {} },
});

describeEachDb(
  "TikTok Ads against a local TikTok API for Business",
  (env) => {
    it("connects through TikTok's portal (auth_code back), stores the long-lived token; the picker names the advertisers", async () => {
      const { client } = await buildOwner(env());
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "tiktok")).toMatchObject({
        order: 22,
        available: true,
        note: null,
      });
      const { consent, back, result } = await connect(client);
      expect(consent.pathname).toBe("/portal/auth");
      expect(consent.searchParams.get("app_id")).toBe((await fake()).appId);
      expect(consent.searchParams.get("redirect_uri")).toMatch(/\/api\/oauth\/tiktok\/callback$/);
      expect(back.searchParams.get("auth_code")).toBeTruthy();
      const exchange = (await calls()).findLast((call) => call.path === "/open_api/v1.3/oauth2/access_token/");
      expect(JSON.parse(exchange?.body ?? "{}")).toEqual({
        app_id: (await fake()).appId,
        secret: (await fake()).appSecret,
        auth_code: back.searchParams.get("auth_code"),
      });
      const stored = await credentialsOf(env(), result.sourceId);
      expect(stored).toEqual({
        access_token: (await fake()).tokens.at(-1),
        advertiser_ids: TIKTOK_ADVERTISERS.map((advertiser) => advertiser.id).join(","),
      });
      const sources = (await client.api("GET", "/api/sources")).json().data;
      expect(sources[0]).toMatchObject({ account: "Ada Ads", invalid: false });

      const before = (await calls()).length;
      const advertisers = await client.api("GET", `/api/sources/${result.sourceId}/properties`);
      expect(advertisers.statusCode).toBe(200);
      expect(advertisers.json().data).toEqual([
        { value: LEADS, label: "Acme Leads" },
        { value: SHOP, label: "Acme Shop" },
        { value: OLD, label: "Old Brand (disabled)" },
      ]);
      const seen = (await calls()).slice(before);
      const granted = seen.find((call) => call.path === "/open_api/v1.3/oauth2/advertiser/get/");
      expect(granted?.query).toMatchObject({ app_id: (await fake()).appId, secret: (await fake()).appSecret });
      expect(granted?.headers["access-token"]).toBe(stored.access_token);
      const info = seen.find((call) => call.path === "/open_api/v1.3/advertiser/info/");
      expect(JSON.parse(info?.query.advertiser_ids ?? "[]")).toEqual([SHOP, LEADS, OLD]);
    });

    it("a refused consent is said in words; deleting the source gives the token back", async () => {
      const { client } = await buildOwner(env());
      (await fake()).deny = true;
      const refused = await connectOAuth(client, "tiktok");
      expect(refused.result).toMatchObject({ ok: false, message: expect.stringContaining("did not allow access") });
      // The documented `auth_code` alone is enough (the callback reads it when `code` is absent).
      (await fake()).codeAlias = false;
      const { back, result } = await connect(client);
      (await fake()).codeAlias = true;
      expect(back.searchParams.get("code")).toBeNull();
      const { access_token: token } = await credentialsOf(env(), result.sourceId);
      expect(token).toBe((await fake()).tokens.at(-1));
      const deleted = await client.api("DELETE", `/api/sources/${result.sourceId}`);
      expect(deleted.statusCode).toBeLessThan(300);
      const revoke = (await calls()).findLast((call) => call.path === "/open_api/v1.3/oauth2/revoke_token/");
      expect(JSON.parse(revoke?.body ?? "{}")).toMatchObject({ access_token: token });
      expect((await fake()).revoked.has(token ?? "")).toBe(true);
    });

    it("by day over 45 days: two report windows (TikTok takes 30 days by day), every page, every day a row, ratios from sums", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const range = { startDate: "2026-09-20", endDate: "2026-11-03", comparison: false };
      const before = (await reportCalls(SHOP)).length;
      const response = await widgetData(
        client,
        [
          report(result.sourceId, {
            dimension: "date",
            metrics: ["spend", "impressions", "ctr", "cpc", "cpm", "conversion_rate"],
          }),
        ],
        range,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.dimension).toEqual({ key: "date", label: "Date", kind: "date" });
      expect(table.metrics).toEqual([
        { key: "a.spend", label: "Cost", format: "money", currency: "EUR" },
        { key: "a.impressions", label: "Impressions", format: "number" },
        { key: "a.ctr", label: "CTR (destination)", format: "percent" },
        { key: "a.cpc", label: "CPC (destination)", format: "money", currency: "EUR", lowerIsBetter: true },
        { key: "a.cpm", label: "CPM", format: "money", currency: "EUR", lowerIsBetter: true },
        { key: "a.conversion_rate", label: "Conversion rate", format: "percent" },
      ]);
      expect(table.rows).toHaveLength(45);
      const day = sums(fakeTikTokUnits(SHOP, "2026-10-02", "2026-10-02"));
      const row = table.rows.find((entry: { dimension: string }) => entry.dimension === "2026-10-02");
      expect(row.values[0]).toBeCloseTo(day.spend, 6);
      expect(row.values[1]).toBe(day.impressions);
      expect(row.values[2]).toBeCloseTo((day.clicks / day.impressions) * 100, 6);
      expect(row.values[3]).toBeCloseTo(day.spend / day.clicks, 6);
      // The 13th had no delivery (TikTok sends no row): zeros, and no ratio rather than a made-up 0.
      expect(table.rows.find((entry: { dimension: string }) => entry.dimension === "2026-10-13")).toEqual({
        dimension: "2026-10-13",
        values: [0, 0, null, null, null, null],
      });
      const total = sums(fakeTikTokUnits(SHOP, range.startDate, range.endDate));
      expect(table.totals[0]).toBeCloseTo(total.spend, 6);
      expect(table.totals[1]).toBe(total.impressions);
      expect(table.totals[2]).toBeCloseTo((total.clicks / total.impressions) * 100, 6);
      expect(table.totals[4]).toBeCloseTo((total.spend / total.impressions) * 1000, 6);
      expect(table.totals[5]).toBeCloseTo((total.conversion / total.clicks) * 100, 6);

      const asked = (await reportCalls(SHOP)).slice(before);
      const windows = [...new Set(asked.map((call) => `${call.query.start_date}..${call.query.end_date}`))];
      expect(windows).toEqual(["2026-09-20..2026-10-19", "2026-10-20..2026-11-03"]);
      // 30 days of rows in pages of 20: the first window takes two pages.
      expect(asked.filter((call) => call.query.start_date === "2026-09-20").map((call) => call.query.page)).toEqual([
        "1",
        "2",
      ]);
      expect(asked[0]?.headers["access-token"]).toBeTruthy();
      expect(asked[0]?.query).toMatchObject({
        report_type: "BASIC",
        data_level: "AUCTION_ADVERTISER",
        dimensions: '["stat_time_day"]',
        metrics: '["spend","impressions","clicks","conversion"]',
        page_size: "1000",
      });
    });

    it("by campaign, ad group or ad: TikTok's level, names from its attribute metrics, rows by cost", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const range = { startDate: "2026-10-01", endDate: "2026-10-07", comparison: false };
      const units = fakeTikTokUnits(SHOP, range.startDate, range.endDate);
      for (const [dimension, level, name, labels] of [
        ["campaign", "AUCTION_CAMPAIGN", "campaign_name", ["Brand Awareness", "Autumn Sale"]],
        ["adgroup", "AUCTION_ADGROUP", "adgroup_name", ["Awareness – 18-34", "Sale – Broad"]],
        ["ad", "AUCTION_AD", "ad_name", ["Video 4", "Video 3", "Video 2", "Video 1"]],
      ] as const) {
        const response = await widgetData(
          client,
          [report(result.sourceId, { dimension, metrics: ["spend", "likes"] })],
          range,
        );
        expect(response.statusCode).toBe(200);
        const table = response.json().data.current;
        expect(table.rows.map((row: { dimension: string }) => row.dimension)).toEqual(labels);
        const awareness = sums(units.filter((unit) => unit.campaignName === "Brand Awareness"));
        if (dimension === "campaign") {
          expect(table.rows[0].values[0]).toBeCloseTo(awareness.spend, 6);
          expect(table.rows[0].values[1]).toBe(awareness.likes);
        }
        expect(table.totals[0]).toBeCloseTo(sums(units).spend, 6);
        const call = (await reportCalls(SHOP)).findLast((entry) => entry.query.data_level === level);
        expect(JSON.parse(call?.query.metrics ?? "[]")).toEqual(["spend", "likes", name]);
      }
      // Without a dimension: the advertiser's own row, totals only.
      const plain = await widgetData(client, [report(result.sourceId, { metrics: ["clicks"] })], range);
      expect(plain.json().data.current).toMatchObject({ dimension: null, rows: [], totals: [sums(units).clicks] });
    });

    it("TikTok's HTTP 200 refusals: a bad metric and a foreign advertiser are the form's 422 in TikTok's words", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const { access_token: token } = await credentialsOf(env(), result.sourceId);
      // The fake refuses as TikTok does: HTTP 200, code 40002, for an unknown metric; 40105 for a bad token.
      const base = `${(await fakes.current()).url}${REPORT}?advertiser_id=${SHOP}&report_type=BASIC&data_level=AUCTION_ADVERTISER&dimensions=${encodeURIComponent('["advertiser_id"]')}&start_date=2026-10-01&end_date=2026-10-02`;
      const bad = await fetch(`${base}&metrics=${encodeURIComponent('["spend","page_views"]')}`, {
        headers: { "access-token": token ?? "" },
      });
      expect(bad.status).toBe(200);
      expect(await bad.json()).toMatchObject({ code: 40002, message: "Invalid metric fields: ['page_views']." });
      const wrong = await fetch(`${base}&metrics=${encodeURIComponent('["spend"]')}`, {
        headers: { "access-token": "nope" },
      });
      expect(await wrong.json()).toMatchObject({ code: 40105 });

      (await fake()).failNext.push(tiktokError(40002, "Invalid metric fields: ['video_watched_6s']."));
      const refused = await widgetData(client, [report(result.sourceId, { metrics: ["video_watched_6s"] })]);
      expect(refused.statusCode).toBe(422);
      expect(JSON.stringify(refused.json())).toContain("Invalid metric fields");
      // The refusal is answered only once the other range's call has ended: here TikTok throttles it and
      // it is asked again a second later, and the 422 waits for that rather than leaving it running.
      const asked = (await reportCalls(SHOP)).length;
      (await fake()).failNext.push(
        tiktokError(40002, "Invalid metric fields: ['video_watched_6s']."),
        tiktokError(40100, "App reaches the QPS limit of 10 per second."),
      );
      const throttled = await widgetData(client, [report(result.sourceId, { metrics: ["video_watched_6s"] })], {
        startDate: "2025-05-01",
        endDate: "2025-05-31",
      });
      expect(throttled.statusCode).toBe(422);
      expect((await reportCalls(SHOP)).length - asked).toBe(3);
      const foreign = await widgetData(client, [
        report(result.sourceId, { property: TIKTOK_FOREIGN_ADVERTISER, metrics: ["spend"] }),
      ]);
      expect(foreign.statusCode).toBe(422);
      expect(JSON.stringify(foreign.json())).toContain(
        `No permission to operate advertiser ${TIKTOK_FOREIGN_ADVERTISER}`,
      );
      // A metric the connector does not offer never reaches TikTok.
      const unknown = await widgetData(client, [report(result.sourceId, { metrics: ["page_views"] })]);
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().errors["instances.0.inputs.metrics"][0]).toContain("page_views");
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("throttling, the daily quota and outages serve the stored numbers with a notice; a per-second throttle is retried", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const range = liveRange();
      // Throttling (QPM) and outages: the scenario kit (test/connector-scenarios/tiktok.test.ts). A spent
      // advertiser is not asked again before its wait is over.
      for (const [advertiser, faults, notice] of [
        [OLD, [tiktokError(40100, "App reaches the QPD limit of 864000 per day.")], "TikTok quota reached"],
      ] as const) {
        const inputs = { metrics: ["impressions"], property: advertiser };
        const stored = await sources.query(company.id, await sources.load(company.id, result.sourceId), {
          type: "tiktok.report",
          inputs,
          range,
          timezone: "UTC",
        });
        await env()
          .ctx.db.updateTable("provider_results")
          .set({ fetched_at: new Date(Date.now() - 20 * 60_000).toISOString() })
          .where("source_id", "=", result.sourceId)
          .execute();
        (await fake()).failNext.push(...faults);
        const response = await client.api("POST", "/api/widgets/data", {
          instances: [instance(result.sourceId, "tiktok.report", inputs)],
          timezone: "UTC",
          ...range,
          comparison: false,
        });
        expect(response.statusCode).toBe(200);
        expect(response.json().data.current.totals).toEqual(stored.table.totals);
        expect(response.json().data.notices).toEqual([
          { instanceId: expect.any(String), asOf: expect.any(String), message: notice },
        ]);
        expect((await fake()).failNext).toEqual([]);
      }
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);

      // A per-second throttle: TikTok is asked again a second later and the numbers come.
      const before = (await reportCalls(SHOP)).length;
      (await fake()).failNext.push(tiktokError(40100, "App reaches the QPS limit of 10 per second."));
      const retried = await widgetData(client, [report(result.sourceId, { metrics: ["clicks"] })], {
        startDate: "2026-10-01",
        endDate: "2026-10-01",
        comparison: false,
      });
      expect(retried.statusCode).toBe(200);
      expect(retried.json().data.current.totals).toEqual([
        sums(fakeTikTokUnits(SHOP, "2026-10-01", "2026-10-01")).clicks,
      ]);
      expect((await reportCalls(SHOP)).length - before).toBe(2);
    });

    it("a token TikTok no longer accepts (40105) makes the source invalid with banner 125", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const { access_token: token } = await credentialsOf(env(), result.sourceId);
      (await fake()).revoked.add(token ?? "");
      const response = await widgetData(client, [report(result.sourceId, { metrics: ["spend"] })], {
        startDate: "2026-10-01",
        endDate: "2026-10-02",
        comparison: false,
      });
      expect(response.statusCode).toBe(502);
      const sources = (await client.api("GET", "/api/sources")).json().data;
      expect(sources[0]).toMatchObject({ id: result.sourceId, invalid: true });
      expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
    });

    it("a range settled for a week is served from the database without asking TikTok again", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const request = {
        type: "tiktok.report",
        inputs: { dimension: "campaign", metrics: ["spend", "cpc"], property: SHOP },
        range: { startDate: "2026-08-01", endDate: "2026-08-31" },
        timezone: "UTC",
      };
      const asked = async () =>
        (await reportCalls(SHOP)).filter((call) => call.query.start_date === "2026-08-01").length;
      const before = await asked();
      const first = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(first.notice).toBeNull();
      expect(first.table.rows.map((row) => row.dimension)).toEqual(["Brand Awareness", "Autumn Sale"]);
      expect(await asked()).toBe(before + 1);
      const again = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(again.table).toEqual(first.table);
      expect(await asked()).toBe(before + 1);
    });
  },
  fakes.env,
);

describe("classifyTikTok: TikTok's return codes (HTTP 200) in the product's kinds", () => {
  const answer = (body: unknown, status = 200) => ({
    status,
    headers: new Headers(),
    body,
    now: Date.UTC(2026, 10, 26, 18),
  });
  it.each([
    [0, "OK", null, null],
    [20001, "Partially successful.", null, null],
    [40100, "App reaches the QPS limit.", "rate", 1000],
    [40100, "App reaches the QPM limit.", "rate", 300_000],
    [40100, "App reaches the QPD limit.", "quota", 6 * 3_600_000],
    [40133, "Advertiser's QPS reaches QPS limit", "rate", 1000],
    [40102, "The access token has expired.", "auth", null],
    [40104, "Access token is null", "auth", null],
    [40105, "Access token is incorrect or has been revoked.", "auth", null],
    [40001, "No permission to operate advertiser 1.", "input", null],
    [40002, "Invalid metric fields: ['x'].", "input", null],
    [40300, "The advertiser does not exist or has been deleted.", "input", null],
    [40113, "The app has been blocked or does not exist.", "server", null],
    [50000, "System error", "server", null],
    [51305, "Satellite service error.", "server", null],
  ] as const)("code %i (%s) is %s", (code, message, kind, wait) => {
    const failure = classifyTikTok("tiktok", answer({ code, message, request_id: "r", data: {} }));
    expect(failure?.kind ?? null).toBe(kind);
    if (wait !== null) expect(failure?.retryAfterMs).toBe(wait);
    if (kind === "input") expect(failure?.reason).toBe(message);
  });
  it("an HTTP error never reached the API: server; a body without the envelope is server, not retried", () => {
    expect(classifyTikTok("tiktok", answer("404 page not found", 404))?.kind).toBe("server");
    expect(classifyTikTok("tiktok", answer({ data: {} }))).toMatchObject({ kind: "server", transient: false });
  });
});
