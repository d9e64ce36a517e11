import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { liveRange } from "../../../test/ranges";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { unseal } from "../../infra/security";
import { metaFake } from "../meta/fake";
import { asyncNeeded } from ".";
import { type FakeAdsUnit, fakeAdsReach, fakeAdsUnits, metaAdsFake } from "./fake";

const fakes = fakesForFile(afterAll, () => {
  const meta = metaFake();
  return { meta, ads: metaAdsFake(meta.state) };
});
const parts = async () => (await fakes.current()).parts;
const calls = async () => (await fakes.current()).calls;

const SHOP = "101000000000001";
const LEADS = "101000000000002";

const ads = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "facebookAds.insights", { property: SHOP, ...inputs });

async function connect(client: TestClient) {
  const connected = await connectOAuth(client, "facebookAds");
  expect(connected.result).toMatchObject({ ok: true, connector: "facebookAds" });
  return connected;
}

async function tokenOf(env: TestEnv, sourceId: string): Promise<string> {
  const row = await env.ctx.db
    .selectFrom("sources")
    .select("credentials")
    .where("id", "=", sourceId)
    .executeTakeFirstOrThrow();
  return (
    (JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")) as Record<string, string>).access_token ?? ""
  );
}

/** What the fake's units add up to: the numbers a user must see. */
function sums(units: readonly FakeAdsUnit[]) {
  const sum = (pick: (unit: FakeAdsUnit) => number) => units.reduce((total, unit) => total + pick(unit), 0);
  return {
    impressions: sum((unit) => unit.impressions),
    clicks: sum((unit) => unit.clicks),
    spend: sum((unit) => unit.spendCents) / 100,
    linkClicks: sum((unit) => unit.linkClicks),
    purchases: sum((unit) => unit.purchases),
    purchaseValue: sum((unit) => unit.purchaseValueCents) / 100,
    leads: sum((unit) => unit.leads),
  };
}

const insightsCalls = async (account: string) =>
  (await calls()).filter((call) => call.path === `/v27.0/act_${account}/insights`);

describeEachDb(
  "Facebook Ads against a local Meta",
  (env) => {
    it("connects through Meta's dialog with ads_read; pickers list ad accounts over two pages and campaigns", async () => {
      const { client } = await buildOwner(env());
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "facebookAds")).toMatchObject({
        order: 5,
        available: true,
        note: null,
      });
      const { consent, result } = await connect(client);
      expect(consent.pathname).toBe("/v25.0/dialog/oauth");
      expect(consent.searchParams.get("scope")?.split(",")).toContain("ads_read");
      const before = (await calls()).length;
      const accounts = await client.api("GET", `/api/sources/${result.sourceId}/properties`);
      expect(accounts.statusCode).toBe(200);
      expect(accounts.json().data).toEqual([
        { value: LEADS, label: "Acme Leads" },
        { value: SHOP, label: "Acme Shop" },
        { value: "101000000000003", label: "Old Brand (closed)" },
      ]);
      // Two answers of two accounts at most: the second asked with the first's `after` cursor.
      const pickerCalls = (await calls()).slice(before).filter((call) => call.path === "/v27.0/me/adaccounts");
      expect(pickerCalls).toHaveLength(2);
      expect(pickerCalls[0]?.query.fields).toBe("name,account_id,currency,timezone_name,account_status");
      expect(pickerCalls[0]?.query.after).toBeUndefined();
      expect(pickerCalls[1]?.query.after).toBeTruthy();
      expect(pickerCalls[0]?.headers.authorization).toMatch(/^Bearer EAAfake/);
      expect(pickerCalls[0]?.query.appsecret_proof).toMatch(/^[0-9a-f]{64}$/);

      const campaigns = await client.api(
        "GET",
        `/api/sources/${result.sourceId}/campaigns?type=facebookAds.insights&property=${SHOP}`,
      );
      expect(campaigns.json().data).toEqual([
        { value: "120200000000", label: "Acme Shop – Sale" },
        { value: "120200000001", label: "Acme Shop – Leads (paused)" },
      ]);
      const metrics = (
        await client.api("GET", `/api/sources/${result.sourceId}/metrics?type=facebookAds.insights`)
      ).json().data;
      expect(metrics).toContainEqual({ value: "purchases", label: "Purchases" });
      const dimensions = (
        await client.api("GET", `/api/sources/${result.sourceId}/dimensions?type=facebookAds.insights`)
      ).json().data;
      expect(dimensions.map((entry: { value: string }) => entry.value)).toEqual([
        "date",
        "campaign",
        "adset",
        "ad",
        "age",
        "gender",
        "country",
        "publisher_platform",
        "device_platform",
      ]);
    });

    it("by day: every day a row, actions flattened, money in the account's currency, totals recomputed and reach from the all-days request", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const range = { startDate: "2026-10-01", endDate: "2026-10-30", comparison: false };
      const before = (await insightsCalls(SHOP)).length;
      const response = await widgetData(
        client,
        [
          ads(result.sourceId, {
            dimension: "date",
            metrics: ["impressions", "spend", "link_clicks", "purchases", "purchase_value", "ctr", "cpc", "reach"],
          }),
        ],
        range,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.metrics).toEqual([
        { key: "a.impressions", label: "Impressions", format: "number" },
        { key: "a.spend", label: "Amount spent", format: "money", currency: "EUR" },
        { key: "a.link_clicks", label: "Link clicks", format: "number" },
        { key: "a.purchases", label: "Purchases", format: "number" },
        { key: "a.purchase_value", label: "Purchases conversion value", format: "money", currency: "EUR" },
        { key: "a.ctr", label: "CTR (all)", format: "percent" },
        { key: "a.cpc", label: "CPC (all)", format: "money", currency: "EUR", lowerIsBetter: true },
        { key: "a.reach", label: "Reach", format: "number" },
      ]);
      expect(table.rows).toHaveLength(30);
      // Day 1 as the fake delivered it: Meta's strings read as numbers, purchases counted once (omni_purchase
      // and the pixel's purchase are the same purchases), link clicks from `actions`.
      const day1 = fakeAdsUnits(SHOP, "2026-10-01", "2026-10-01");
      const d1 = sums(day1);
      expect(table.rows[0].dimension).toBe("2026-10-01");
      expect(table.rows[0].values[0]).toBe(d1.impressions);
      expect(table.rows[0].values[1]).toBeCloseTo(d1.spend, 6);
      expect(table.rows[0].values[2]).toBe(d1.linkClicks);
      expect(table.rows[0].values[3]).toBe(d1.purchases);
      expect(table.rows[0].values[4]).toBeCloseTo(d1.purchaseValue, 6);
      expect(table.rows[0].values[5]).toBeCloseTo((d1.clicks / d1.impressions) * 100, 6);
      expect(table.rows[0].values[6]).toBeCloseTo(d1.spend / d1.clicks, 6);
      expect(table.rows[0].values[7]).toBe(fakeAdsReach(day1));
      // The 13th had no delivery (Meta sends no row): zeros, and no CTR or CPC rather than a made-up 0.
      expect(table.rows[12]).toEqual({ dimension: "2026-10-13", values: [0, 0, 0, 0, 0, null, null, 0] });

      // Totals: sums, and ratios of the sums — never an average of the days' ratios.
      const all = fakeAdsUnits(SHOP, "2026-10-01", "2026-10-30");
      const total = sums(all);
      expect(table.totals[0]).toBe(total.impressions);
      expect(table.totals[1]).toBeCloseTo(total.spend, 6);
      expect(table.totals[5]).toBeCloseTo((total.clicks / total.impressions) * 100, 6);
      expect(table.totals[6]).toBeCloseTo(total.spend / total.clicks, 6);
      // Reach over the month is Meta's deduplicated figure, less than the sum of the days' reach.
      expect(table.totals[7]).toBe(fakeAdsReach(all));
      const dailyReach = table.rows.reduce((sum: number, row: { values: number[] }) => sum + (row.values[7] ?? 0), 0);
      expect(table.totals[7]).toBeLessThan(dailyReach);

      // What Meta was asked: the by-day request (two pages of 25) and one all-days request for the totals.
      const asked = (await insightsCalls(SHOP)).slice(before);
      const byDay = asked.filter((call) => call.query.time_increment === "1");
      expect(byDay).toHaveLength(2);
      expect(byDay[0]?.method).toBe("GET");
      expect(byDay[0]?.query).toMatchObject({
        level: "account",
        time_range: JSON.stringify({ since: "2026-10-01", until: "2026-10-30" }),
        fields: "action_values,actions,clicks,impressions,reach,spend",
      });
      expect(byDay[1]?.query.after).toBeTruthy();
      const totals = asked.filter((call) => call.query.time_increment === "all_days");
      expect(totals).toHaveLength(1);
      expect(totals[0]?.query).toMatchObject({
        level: "account",
        fields: "action_values,actions,clicks,impressions,reach,spend,account_currency",
      });
      expect(totals[0]?.query.breakdowns).toBeUndefined();
    });

    it("a breakdown, a campaign narrowing and campaign rows are asked as Meta takes them", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const range = { startDate: "2026-10-01", endDate: "2026-10-07", comparison: false };
      const before = (await insightsCalls(SHOP)).length;
      const devices = await widgetData(
        client,
        [ads(result.sourceId, { campaign: "120200000001", dimension: "device_platform", metrics: ["leads", "cpm"] })],
        range,
      );
      expect(devices.statusCode).toBe(200);
      const table = devices.json().data.current;
      const units = fakeAdsUnits(SHOP, "2026-10-01", "2026-10-07", "120200000001");
      const mobile = sums(units.filter((unit) => unit.slot !== 1));
      const desktop = sums(units.filter((unit) => unit.slot === 1));
      expect(table.dimension).toEqual({ key: "device_platform", label: "Device", kind: "string" });
      expect(table.metrics[1]).toEqual({
        key: "a.cpm",
        label: "CPM (cost per 1,000 impressions)",
        format: "money",
        currency: "EUR",
        lowerIsBetter: true,
      });
      expect(table.rows.map((row: { dimension: string }) => row.dimension)).toEqual(["mobile", "desktop"]);
      expect(table.rows[0].values[0]).toBe(mobile.leads);
      expect(table.rows[0].values[1]).toBeCloseTo((mobile.spend / mobile.impressions) * 1000, 6);
      expect(table.rows[1].values[1]).toBeCloseTo((desktop.spend / desktop.impressions) * 1000, 6);
      const breakdown = (await insightsCalls(SHOP)).slice(before).find((call) => call.query.breakdowns);
      expect(breakdown?.query).toMatchObject({
        breakdowns: "device_platform",
        time_increment: "all_days",
        filtering: JSON.stringify([{ field: "campaign.id", operator: "IN", value: ["120200000001"] }]),
      });

      const byCampaign = await widgetData(
        client,
        [ads(result.sourceId, { level: "ad", dimension: "campaign", metrics: ["spend"] })],
        range,
      );
      expect(byCampaign.statusCode).toBe(200);
      const campaigns = byCampaign.json().data.current;
      const sale = sums(fakeAdsUnits(SHOP, "2026-10-01", "2026-10-07", "120200000000"));
      // Rows by spend, highest first.
      expect(campaigns.rows.map((row: { dimension: string }) => row.dimension)).toEqual([
        "Acme Shop – Leads",
        "Acme Shop – Sale",
      ]);
      expect(campaigns.rows[1].values[0]).toBeCloseTo(sale.spend, 6);
      const campaignCall = (await insightsCalls(SHOP)).findLast((call) => call.query.level === "campaign");
      expect(campaignCall?.query.fields).toBe("campaign_id,campaign_name,spend");
    });

    it("a long range by day at ad level runs as an asynchronous report, polled until Meta completes it", async () => {
      expect(asyncNeeded("ad", true, 120)).toBe(true);
      expect(asyncNeeded("account", true, 120)).toBe(false);
      expect(asyncNeeded("ad", false, 400)).toBe(false);
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const before = (await calls()).length;
      const range = { startDate: "2026-05-01", endDate: "2026-08-28", comparison: false };
      const response = await widgetData(
        client,
        [ads(result.sourceId, { level: "ad", dimension: "date", metrics: ["clicks", "ctr"] })],
        range,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.rows).toHaveLength(120);
      const day = sums(fakeAdsUnits(SHOP, "2026-07-04", "2026-07-04"));
      expect(table.rows.find((row: { dimension: string }) => row.dimension === "2026-07-04").values).toEqual([
        day.clicks,
        expect.closeTo((day.clicks / day.impressions) * 100, 6),
      ]);
      const total = sums(fakeAdsUnits(SHOP, "2026-05-01", "2026-08-28"));
      expect(table.totals[0]).toBe(total.clicks);

      const seen = (await calls()).slice(before);
      const started = seen.find((call) => call.method === "POST" && call.path === `/v27.0/act_${SHOP}/insights`);
      const form = Object.fromEntries(new URLSearchParams(started?.body ?? ""));
      expect(form).toMatchObject({ level: "ad", time_increment: "1", fields: "clicks,impressions" });
      const run = [...(await parts()).ads.runs.entries()].findLast(([, entry]) => entry.query.level === "ad");
      expect(run?.[1].polls).toBe(2);
      const runId = run?.[0] ?? "";
      expect(seen.filter((call) => call.path === `/v27.0/${runId}`)).toHaveLength(2);
      // 120 days × 4 ads in pages of 25 rows.
      expect(seen.filter((call) => call.path === `/v27.0/${runId}/insights`).length).toBeGreaterThan(10);
      // No synchronous by-day request was tried for the range (Meta would have answered "reduce the amount of data").
      expect(
        seen.some(
          (call) => call.method === "GET" && call.path.endsWith("/insights") && call.query.time_increment === "1",
        ),
      ).toBe(false);
    });

    it("Meta throttling the ad account (80000): the source stays valid and the stored numbers are served with a notice", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const range = liveRange();
      // Declared keys in order, as the widget data path normalises them (the stored result is found by them).
      const inputs = { metrics: ["leads", "spend"], property: LEADS };
      const stored = await sources.query(company.id, await sources.load(company.id, result.sourceId), {
        type: "facebookAds.insights",
        inputs,
        range,
        timezone: "UTC",
      });
      expect(stored.table.metrics[1]).toMatchObject({ key: "spend", currency: "USD" });
      const fetchedAt = new Date(Date.now() - 20 * 60_000).toISOString();
      await env()
        .ctx.db.updateTable("provider_results")
        .set({ fetched_at: fetchedAt })
        .where("source_id", "=", result.sourceId)
        .execute();
      (await parts()).meta.failNext.push({
        status: 400,
        pathIncludes: `act_${LEADS}/insights`,
        headers: {
          "x-business-use-case-usage": JSON.stringify({
            [LEADS]: [
              {
                type: "ads_insights",
                call_count: 100,
                total_cputime: 40,
                total_time: 60,
                estimated_time_to_regain_access: 5,
              },
            ],
          }),
        },
        body: {
          error: {
            message: "There have been too many calls from this ad-account. Wait a bit and try again.",
            type: "OAuthException",
            code: 80000,
            error_subcode: 2446079,
            is_transient: true,
            fbtrace_id: "AfakeThrottle",
          },
        },
      });
      const response = await client.api("POST", "/api/widgets/data", {
        instances: [instance(result.sourceId, "facebookAds.insights", inputs)],
        timezone: "UTC",
        ...range,
        comparison: false,
      });
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      expect(data.current.totals).toEqual(stored.table.totals);
      expect(data.notices).toEqual([
        { instanceId: expect.any(String), asOf: fetchedAt, message: "Facebook Ads is limiting requests" },
      ]);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("usage at 100 % on a successful answer holds the ad account: the next query is served stored with a notice, Meta not asked", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const range = liveRange();
      // Not LEADS: the throttling test above leaves that account blocked in this process for Meta's 5 minutes.
      const inputs = { metrics: ["clicks", "spend"], property: SHOP };
      // Meta's usage on a success: the account's calls used up for the next 300 s, its business at 100 %.
      (await parts()).meta.usageNext.push({
        pathIncludes: `act_${SHOP}/insights`,
        headers: {
          "x-ad-account-usage": JSON.stringify({ acc_id_util_pct: 100, reset_time_duration: 300 }),
          "x-business-use-case-usage": JSON.stringify({
            "900000000000001": [
              {
                type: "ads_insights",
                call_count: 100,
                total_cputime: 20,
                total_time: 30,
                estimated_time_to_regain_access: 0,
              },
            ],
          }),
        },
      });
      const counters = env().ctx.rateLimits;
      try {
        const stored = await sources.query(company.id, await sources.load(company.id, result.sourceId), {
          type: "facebookAds.insights",
          inputs,
          range,
          timezone: "UTC",
        });
        expect(stored.notice).toBeNull();
        expect((await parts()).meta.usageNext).toEqual([]);
        const fetchedAt = new Date(Date.now() - 20 * 60_000).toISOString();
        await env()
          .ctx.db.updateTable("provider_results")
          .set({ fetched_at: fetchedAt })
          .where("source_id", "=", result.sourceId)
          .execute();
        const before = (await insightsCalls(SHOP)).length;
        const response = await widgetData(client, [instance(result.sourceId, "facebookAds.insights", inputs)], {
          ...range,
          comparison: false,
        });
        expect(response.statusCode).toBe(200);
        const data = response.json().data;
        expect(data.current.totals).toEqual(stored.table.totals);
        expect(data.notices).toEqual([
          { instanceId: expect.any(String), asOf: fetchedAt, message: "Facebook Ads is limiting requests" },
        ]);
        expect((await insightsCalls(SHOP)).length).toBe(before);
        // Another process learns the hold from the shared counters: the account is held for Meta's 300 s.
        const held = await counters.hit(`provider:meta:hold:key:account:${SHOP}`, 1);
        expect(held.resetInMs).toBeGreaterThan(240_000);
        expect(held.resetInMs).toBeLessThanOrEqual(300_000);
        expect(await counters.peek("provider:meta:hold:business:900000000000001")).toBeGreaterThan(0);
        expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      } finally {
        // The hold would outlive this test and starve the file's other tests of the account.
        await counters.reset(`provider:meta:hold:key:account:${SHOP}`);
        await counters.reset("provider:meta:hold:business:900000000000001");
      }
    });

    it("a token Meta no longer accepts (190) makes the source invalid with banner 125", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      (await parts()).meta.revoked.add(await tokenOf(env(), result.sourceId));
      const response = await widgetData(client, [ads(result.sourceId, { metrics: ["spend"] })], {
        startDate: "2026-10-01",
        endDate: "2026-10-02",
        comparison: false,
      });
      expect(response.statusCode).toBe(502);
      const sources = (await client.api("GET", "/api/sources")).json().data;
      expect(sources[0]).toMatchObject({ id: result.sourceId, invalid: true });
      expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
    });

    it("a field Meta refuses is the form's 422 in Meta's words; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      // The fake refuses an unknown field as Meta does.
      const token = await tokenOf(env(), result.sourceId);
      const direct = await fetch(
        `${(await fakes.current()).url}/v27.0/act_${SHOP}/insights?fields=spend,page_impressions&time_range=${encodeURIComponent('{"since":"2026-10-01","until":"2026-10-02"}')}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(direct.status).toBe(400);
      const refusal = (await direct.json()) as { error: { code: number; message: string } };
      expect(refusal.error).toMatchObject({ code: 100, type: "OAuthException" });
      expect(refusal.error.message).toMatch(/^\(#100\) page_impressions is not valid for fields param/);
      const notJson = await fetch(
        `${(await fakes.current()).url}/v27.0/act_${SHOP}/insights?fields=spend&time_range=2026-10-01`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(((await notJson.json()) as { error: { message: string } }).error.message).toBe(
        "(#100) param time_range must be non-empty.",
      );

      // Meta refusing a field of a widget (one it has since removed): the form's error, with Meta's words.
      (await parts()).meta.failNext.push({
        status: 400,
        pathIncludes: `act_${SHOP}/insights`,
        body: { error: { message: refusal.error.message, type: "OAuthException", code: 100, fbtrace_id: "Afake" } },
      });
      const refused = await widgetData(client, [ads(result.sourceId, { metrics: ["impressions"] })], {
        startDate: "2026-10-01",
        endDate: "2026-10-02",
        comparison: false,
      });
      expect(refused.statusCode).toBe(422);
      expect(JSON.stringify(refused.json())).toContain("page_impressions is not valid for fields param");
      // A metric the connector does not offer never reaches Meta.
      const unknown = await widgetData(client, [ads(result.sourceId, { metrics: ["page_impressions"] })]);
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json().errors["instances.0.inputs.metrics"][0]).toContain("page_impressions");
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("a range older than Meta's 28-day attribution window is served from the database without asking again", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const request = {
        type: "facebookAds.insights",
        inputs: { dimension: "age", metrics: ["spend", "reach"], property: SHOP },
        range: { startDate: "2026-09-01", endDate: "2026-09-30" },
        timezone: "UTC",
      };
      const asked = async () =>
        (await insightsCalls(SHOP)).filter((call) => call.query.time_range?.includes('"since":"2026-09-01"')).length;
      const before = await asked();
      const first = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(first.notice).toBeNull();
      expect(first.table.rows.map((row) => row.dimension)).toEqual(["35-44", "25-34", "18-24"]);
      expect(await asked()).toBe(before + 2);
      const again = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(again.table).toEqual(first.table);
      expect(await asked()).toBe(before + 2);
    });
  },
  fakes.env,
);
