import { shiftDay } from "@app/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, startTestEnv, type TestClient, type TestEnv } from "../../../test/harness";
import { expectStoredWithNotice, instance, storeAgedResult, widgetData } from "../../features/widgets/test-helpers";
import { loadConfig } from "../../infra/config";
import { seal, unseal } from "../../infra/security";
import { googleFake } from "../google/fake";
import { nextPacificMidnight } from "../http/google-reset";
import { adsOperationsBucket } from ".";
import { ADS_DEVICES, adsCampaigns, adsFailure, fakeAdsCell, googleAdsFake } from "./fake";

const fakes = fakesForFile(afterAll, () => {
  const google = googleFake();
  return { google, ads: googleAdsFake(google.state) };
});
const parts = async () => (await fakes.current()).parts;

const connect = (client: TestClient, body: Record<string, unknown> = {}) => connectOAuth(client, "googleAds", body);

/** Acme Shoes (EUR), a client of the Acme Agency MCC: reached with the manager as login-customer-id. */
const SHOES = "1112223333:4445556666";

const ads = (sourceId: string, inputs: Record<string, unknown>, overrides: Record<string, unknown> = {}) =>
  instance(sourceId, "googleAds.report", { property: SHOES, reportType: "campaign", ...inputs }, overrides);

const daysOf = (start: string, count: number) => Array.from({ length: count }, (_, index) => shiftDay(start, index));

/** What the fake's account did over some days, summed over devices: the numbers a user must see. */
function activity(
  customer: string,
  days: string[],
  pick: (campaign: string, adGroup: string, ad: string) => boolean = () => true,
) {
  const sums = { impressions: 0, clicks: 0, costMicros: 0, conversions: 0, conversionsValue: 0 };
  for (const campaign of adsCampaigns(customer)) {
    if (campaign.status === "REMOVED") continue;
    for (const group of campaign.adGroups) {
      for (const ad of group.ads) {
        if (!pick(campaign.id, group.id, ad.id)) continue;
        for (const day of days) {
          for (const device of ADS_DEVICES) {
            const cell = fakeAdsCell(ad.id, day, device);
            if (!cell) continue;
            sums.impressions += cell.impressions;
            sums.clicks += cell.clicks;
            sums.costMicros += cell.costMicros;
            sums.conversions += cell.conversions;
            sums.conversionsValue += cell.conversionsValue;
          }
        }
      }
    }
  }
  return sums;
}

async function storedCredentials(env: TestEnv, sourceId: string) {
  const row = await env.ctx.db
    .selectFrom("sources")
    .select("credentials")
    .where("id", "=", sourceId)
    .executeTakeFirstOrThrow();
  return JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")) as Record<string, string>;
}

async function expireStoredToken(env: TestEnv, sourceId: string, credentials: Record<string, string>) {
  await env.ctx.db
    .updateTable("sources")
    .set({ credentials: seal(env.ctx.config.appKey, JSON.stringify({ ...credentials, expires_at: "0" })) })
    .where("id", "=", sourceId)
    .execute();
}

describe("Google Ads without a developer token on this server", () => {
  it("is listed as not configured, naming the variable, and cannot be started", async () => {
    const { GOOGLE_ADS_DEVELOPER_TOKEN: _token, ...rest } = await fakes.env();
    const env = await startTestEnv("sqlite", rest);
    try {
      const { client } = await buildOwner(env);
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "googleAds")).toMatchObject({
        order: 3,
        available: false,
        note: "Not configured on this server (set GOOGLE_ADS_DEVELOPER_TOKEN).",
      });
      const refused = await client.api("POST", "/api/oauth/googleAds/start", {});
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.name[0]).toContain("GOOGLE_ADS_DEVELOPER_TOKEN");
    } finally {
      await env.close();
    }
  });
});

describe("Google Ads: the developer token's operations per day", () => {
  it("are counted before each call: once spent, nothing more is sent to Google", async () => {
    const env = await startTestEnv("sqlite", { ...(await fakes.env()), GOOGLE_ADS_DAILY_OPERATIONS: "2" });
    try {
      const { client } = await buildOwner(env);
      const { result } = await connect(client);
      const { ads: fake } = await parts();
      const first = await widgetData(client, [ads(result.sourceId, { metrics: ["clicks"] })], {
        startDate: "2026-07-01",
        endDate: "2026-07-03",
        comparison: false,
      });
      expect(first.statusCode).toBe(200);
      const campaigns = await client.api(
        "GET",
        `/api/sources/${result.sourceId}/campaigns?type=googleAds.report&property=${encodeURIComponent(SHOES)}`,
      );
      expect(campaigns.statusCode).toBe(200);
      const sent = fake.searches.length;
      // The third operation of the day: refused here, never sent; nothing stored to show instead.
      const third = await widgetData(client, [ads(result.sourceId, { metrics: ["impressions"] })], {
        startDate: "2026-07-01",
        endDate: "2026-07-03",
        comparison: false,
      });
      expect(third.statusCode).toBe(502);
      expect(third.json()).toMatchObject({ code: "source_error", message: "Data Error" });
      expect(fake.searches.length).toBe(sent);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    } finally {
      await env.close();
    }
  });
});

describe("Google Ads: the access level sets the operations a day", () => {
  const allowance = (env: Record<string, string>) => loadConfig(env).providers.google;

  it.each<[Record<string, string>, string, number | null]>([
    // Explorer is the level most projects are granted first: 2,880 a day against production accounts.
    [{}, "explorer", 2_880],
    [{ GOOGLE_ADS_ACCESS_LEVEL: "explorer" }, "explorer", 2_880],
    [{ GOOGLE_ADS_ACCESS_LEVEL: "test" }, "test", 15_000],
    [{ GOOGLE_ADS_ACCESS_LEVEL: "basic" }, "basic", 15_000],
    // Standard has no daily cap: nothing is counted.
    [{ GOOGLE_ADS_ACCESS_LEVEL: "standard" }, "standard", null],
    // The operator's own number wins (another tool sharing the allowance, a cap under Standard).
    [{ GOOGLE_ADS_ACCESS_LEVEL: "basic", GOOGLE_ADS_DAILY_OPERATIONS: "5000" }, "basic", 5_000],
    [{ GOOGLE_ADS_ACCESS_LEVEL: "standard", GOOGLE_ADS_DAILY_OPERATIONS: "100000" }, "standard", 100_000],
  ])("%j → %s, %j operations a day", (env, level, operations) => {
    expect(allowance(env)).toMatchObject({ adsAccessLevel: level, adsDailyOperations: operations });
  });

  it("an unknown level stops the server at start, naming the variable", () => {
    expect(() => allowance({ GOOGLE_ADS_ACCESS_LEVEL: "gold" })).toThrow(/GOOGLE_ADS_ACCESS_LEVEL/);
  });

  it("under Standard access nothing is counted: Google does not cap its operations", async () => {
    const env = await startTestEnv("sqlite", { ...(await fakes.env()), GOOGLE_ADS_ACCESS_LEVEL: "standard" });
    try {
      const { client } = await buildOwner(env);
      const { result } = await connect(client);
      const answer = await widgetData(client, [ads(result.sourceId, { metrics: ["clicks"] })], {
        startDate: "2026-05-01",
        endDate: "2026-05-03",
        comparison: false,
      });
      expect(answer.statusCode).toBe(200);
      expect((await client.api("GET", `/api/sources/${result.sourceId}/properties`)).statusCode).toBe(200);
      const key = adsOperationsBucket(1, Date.now()).key;
      expect(await env.ctx.rateLimits.peek(`provider:google-ads:${key}`)).toBe(0);
    } finally {
      await env.close();
    }
  });

  it("the account picker spends the allowance as reports do; once spent, the picker and widgets ask Google nothing", async () => {
    const env = await startTestEnv("sqlite", { ...(await fakes.env()), GOOGLE_ADS_ACCESS_LEVEL: "explorer" });
    try {
      const { client, company } = await buildOwner(env);
      const { result } = await connect(client);
      const { ads: fake } = await parts();
      const counter = `provider:google-ads:${adsOperationsBucket(2_880, Date.now()).key}`;
      const today = new Date().toISOString().slice(0, 10);
      const query = {
        companyId: company.id,
        sourceId: result.sourceId,
        type: "googleAds.report",
        // Keys in the order the widget path stores them (sorted), so its ask finds this stored result.
        inputs: { metrics: ["clicks"], property: SHOES, reportType: "campaign" },
        range: { startDate: shiftDay(today, -6), endDate: today },
      };
      const stored = await storeAgedResult(env, query);
      expect(await env.ctx.rateLimits.peek(counter)).toBe(1);

      // The picker: listAccessibleCustomers and one customer_client query per accessible account, each
      // an operation of the same day's allowance.
      const adsCalls = () => fake.calls.filter((call) => call.path.startsWith("/v24/customers")).length;
      const before = adsCalls();
      const picker = await client.api("GET", `/api/sources/${result.sourceId}/properties`);
      expect(picker.statusCode).toBe(200);
      const pickerCalls = adsCalls() - before;
      expect(pickerCalls).toBe(3);
      expect(await env.ctx.rateLimits.peek(counter)).toBe(1 + pickerCalls);

      // The rest of Explorer's 2,880 spent (other widgets, other pickers): nothing more goes to Google.
      for (let spent = await env.ctx.rateLimits.peek(counter); spent < 2_880; spent += 1) {
        await env.ctx.rateLimits.hit(counter, 3_600_000);
      }
      const sent = adsCalls();
      const refused = await client.api("GET", `/api/sources/${result.sourceId}/properties`);
      expect(refused.statusCode).toBe(502);
      expect(refused.json()).toMatchObject({ code: "source_error" });
      // The widget shows its stored numbers, "as of" when they were fetched, with the reason.
      await expectStoredWithNotice(client, query, stored, "Google Ads quota reached");
      expect(adsCalls()).toBe(sent);
    } finally {
      await env.close();
    }
  });
});

describe("Google Ads: the operations day is Google's, from midnight to midnight in Los Angeles", () => {
  const at = (iso: string) => Date.parse(iso);

  it("the counter is the Pacific day's and lasts until its midnight, not 24 hours from the first call", () => {
    // 04:00 PST: twenty hours left of the day.
    expect(adsOperationsBucket(15_000, at("2026-11-26T12:00:00Z"))).toEqual({
      key: "developer-token:2026-11-26",
      max: 15_000,
      windowMs: 20 * 3_600_000,
      kind: "quota",
    });
    // One second before Pacific midnight, then just after it: a new day, a new counter.
    expect(adsOperationsBucket(10, at("2026-11-27T07:59:59Z"))).toMatchObject({
      key: "developer-token:2026-11-26",
      windowMs: 1000,
    });
    expect(adsOperationsBucket(10, at("2026-11-27T08:00:01Z")).key).toBe("developer-token:2026-11-27");
    // UTC's midnight is no reset: 15:59 and 16:01 Pacific are the same day.
    expect(adsOperationsBucket(10, at("2026-11-26T23:59:00Z")).key).toBe(
      adsOperationsBucket(10, at("2026-11-27T00:01:00Z")).key,
    );
  });

  it("the clock changes: the day after falling back is 25 hours, the day of springing forward 23", () => {
    // 00:30 PDT on 1 November 2026; midnight comes at 00:00 PST on 2 November (08:00 UTC).
    expect(nextPacificMidnight(at("2026-11-01T07:30:00Z"))).toBe(at("2026-11-02T08:00:00Z"));
    // 00:30 PST on 8 March 2026; midnight comes at 00:00 PDT on 9 March (07:00 UTC).
    expect(nextPacificMidnight(at("2026-03-08T08:30:00Z"))).toBe(at("2026-03-09T07:00:00Z"));
    expect(adsOperationsBucket(10, at("2026-03-08T08:30:00Z")).windowMs).toBe(22.5 * 3_600_000);
  });

  it("operations spent on an earlier Pacific day do not count today; today's spent refuse the call unsent", async () => {
    const env = await startTestEnv("sqlite", { ...(await fakes.env()), GOOGLE_ADS_DAILY_OPERATIONS: "2" });
    try {
      const { client } = await buildOwner(env);
      const { result } = await connect(client);
      const { ads: fake } = await parts();
      const counter = (bucket: { key: string; windowMs: number }) => `provider:google-ads:${bucket.key}`;
      const earlier = adsOperationsBucket(2, Date.now() - 30 * 3_600_000);
      for (let spent = 0; spent < 3; spent += 1) await env.ctx.rateLimits.hit(counter(earlier), 86_400_000);
      const sent = fake.searches.length;
      const today = await widgetData(client, [ads(result.sourceId, { metrics: ["clicks"] })], {
        startDate: "2026-06-01",
        endDate: "2026-06-03",
        comparison: false,
      });
      expect(today.statusCode).toBe(200);
      expect(fake.searches.length).toBe(sent + 1);
      const now = adsOperationsBucket(2, Date.now());
      await env.ctx.rateLimits.hit(counter(now), now.windowMs);
      const refused = await widgetData(client, [ads(result.sourceId, { metrics: ["impressions"] })], {
        startDate: "2026-06-01",
        endDate: "2026-06-03",
        comparison: false,
      });
      expect(refused.statusCode).toBe(502);
      expect(fake.searches.length).toBe(sent + 1);
    } finally {
      await env.close();
    }
  });
});

describeEachDb(
  "Google Ads against a local Google",
  (env) => {
    it("connects through Google's consent with the adwords scope", async () => {
      const { client } = await buildOwner(env());
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "googleAds")).toMatchObject({
        available: true,
        note: null,
      });
      const { consent, result } = await connect(client);
      expect(consent.searchParams.get("scope")).toBe("https://www.googleapis.com/auth/adwords openid email");
      expect(consent.searchParams.get("access_type")).toBe("offline");
      expect(result).toMatchObject({ ok: true, connector: "googleAds" });
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([
        expect.objectContaining({ id: result.sourceId, name: "googleAds", account: "analytics@acme.example" }),
      ]);
    });

    it("offers the client accounts under the login's managers and the ones it reaches directly, never a manager", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const { ads: fake } = await parts();
      const before = fake.calls.length;
      const properties = await client.api("GET", `/api/sources/${result.sourceId}/properties`);
      expect(properties.statusCode).toBe(200);
      expect(properties.json().data).toEqual([
        { value: "1112223333:7778889999", label: "Acme Hats (777-888-9999)" },
        { value: "1112223333:4445556666", label: "Acme Shoes (444-555-6666)" },
        { value: "5550001111", label: "Solo Bakery (555-000-1111)" },
      ]);
      const calls = fake.calls.slice(before);
      expect(calls[0]).toMatchObject({ method: "GET", path: "/v24/customers:listAccessibleCustomers" });
      // Each accessible account's tree, asked with itself as the login; every call with the developer token.
      const trees = calls.filter((call) => call.path.endsWith("googleAds:searchStream"));
      expect(trees.map((call) => [call.path, call.headers["login-customer-id"]]).sort()).toEqual([
        ["/v24/customers/1112223333/googleAds:searchStream", "1112223333"],
        ["/v24/customers/5550001111/googleAds:searchStream", "5550001111"],
      ]);
      expect(JSON.parse(trees[0]?.body ?? "{}")).toEqual({
        query:
          "SELECT customer_client.id, customer_client.descriptive_name, customer_client.currency_code, customer_client.manager, customer_client.level FROM customer_client WHERE customer_client.level <= 1",
      });
      for (const call of calls) {
        expect(call.headers["developer-token"]).toBe("fake-developer-token");
        expect(call.headers.authorization).toMatch(/^Bearer ya29\./);
      }
    });

    it("lists campaigns, their ad groups and ads (removed ones left out), dimensions per report and the metrics", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const list = async (kind: string, form: Record<string, string>) => {
        const query = new URLSearchParams({ type: "googleAds.report", property: SHOES, ...form });
        const response = await client.api("GET", `/api/sources/${result.sourceId}/${kind}?${query}`);
        expect(response.statusCode).toBe(200);
        return response.json().data;
      };
      expect(await list("campaigns", {})).toEqual([
        { value: "201", label: "Brand – Search" },
        { value: "202", label: "Remarketing – Display (paused)" },
      ]);
      expect(await list("adGroups", { campaign: "201" })).toEqual([
        { value: "301", label: "Running shoes" },
        { value: "302", label: "Boots (paused)" },
      ]);
      expect(await list("ads", { campaign: "202", adGroup: "303" })).toEqual([
        { value: "404", label: "Autumn banner" },
      ]);
      expect(await list("ads", { campaign: "201", adGroup: "301" })).toEqual([
        { value: "401", label: "Responsive search ad 401" },
        { value: "402", label: "Responsive search ad 402" },
      ]);
      const { ads: fake } = await parts();
      expect(fake.searches.at(-1)).toEqual({
        customer: "4445556666",
        login: "1112223333",
        developerToken: "fake-developer-token",
        query:
          "SELECT ad_group_ad.ad.id, ad_group_ad.ad.name, ad_group_ad.ad.type FROM ad_group_ad WHERE ad_group.id = 301 AND ad_group_ad.status != 'REMOVED'",
      });
      expect((await list("dimensions", { reportType: "campaign" })).map((o: { value: string }) => o.value)).toEqual([
        "date",
        "device",
        "network",
        "campaign",
      ]);
      expect((await list("dimensions", { reportType: "keyword" })).map((o: { value: string }) => o.value)).toContain(
        "keyword",
      );
      expect(await list("metrics", {})).toEqual(
        expect.arrayContaining([
          { value: "cost", label: "Cost" },
          { value: "ctr", label: "CTR" },
          { value: "average_cpc", label: "Avg. CPC" },
          { value: "cost_per_conversion", label: "Cost / conv." },
        ]),
      );
      const missing = await client.api(
        "GET",
        `/api/sources/${result.sourceId}/adGroups?type=googleAds.report&property=${encodeURIComponent(SHOES)}`,
      );
      expect(missing.statusCode).toBe(422);
    });

    it("by date: every day of the range, money from micros in the account's currency, ratios from the summed parts", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const range = { startDate: "2026-10-01", endDate: "2026-10-08" };
      const metrics = [
        "impressions",
        "clicks",
        "cost",
        "ctr",
        "average_cpc",
        "conversions",
        "conversions_value",
        "cost_per_conversion",
      ];
      const response = await widgetData(client, [ads(result.sourceId, { dimension: "date", metrics })], range);
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.dimension).toEqual({ key: "date", label: "Date", kind: "date" });
      expect(table.metrics).toEqual([
        { key: "a.impressions", label: "Impressions", format: "number" },
        { key: "a.clicks", label: "Clicks", format: "number" },
        { key: "a.cost", label: "Cost", format: "money", currency: "EUR" },
        { key: "a.ctr", label: "CTR", format: "percent" },
        { key: "a.average_cpc", label: "Avg. CPC", format: "money", currency: "EUR", lowerIsBetter: true },
        { key: "a.conversions", label: "Conversions", format: "number" },
        { key: "a.conversions_value", label: "Conv. value", format: "money", currency: "EUR" },
        { key: "a.cost_per_conversion", label: "Cost / conv.", format: "money", currency: "EUR", lowerIsBetter: true },
      ]);
      const days = daysOf("2026-10-01", 8);
      expect(table.rows.map((row: { dimension: string }) => row.dimension)).toEqual(days);
      // The 4th and 8th had no activity (Google leaves them out): zeros, and no ratio rather than a false 0.
      expect(table.rows[3].values).toEqual([0, 0, 0, null, null, 0, 0, null]);
      expect(table.rows[7].values).toEqual([0, 0, 0, null, null, 0, 0, null]);
      const first = activity("4445556666", ["2026-10-01"]);
      expect(table.rows[0].values[0]).toBe(first.impressions);
      expect(table.rows[0].values[1]).toBe(first.clicks);
      expect(table.rows[0].values[2]).toBeCloseTo(first.costMicros / 1e6, 6);
      expect(table.rows[0].values[3]).toBeCloseTo((first.clicks / first.impressions) * 100, 6);
      const all = activity("4445556666", days);
      expect(table.totals[0]).toBe(all.impressions);
      expect(table.totals[1]).toBe(all.clicks);
      expect(table.totals[2]).toBeCloseTo(all.costMicros / 1e6, 6);
      // Never an average of daily rates: total clicks over total impressions, total cost over total clicks.
      expect(table.totals[3]).toBeCloseTo((all.clicks / all.impressions) * 100, 9);
      expect(table.totals[4]).toBeCloseTo(all.costMicros / 1e6 / all.clicks, 9);
      expect(table.totals[5]).toBe(all.conversions);
      expect(table.totals[6]).toBe(all.conversionsValue);
      expect(table.totals[7]).toBeCloseTo(all.costMicros / 1e6 / all.conversions, 9);
      // What Google was asked: the additive parts only, the range, the manager as login-customer-id.
      const { ads: fake } = await parts();
      const asked = fake.calls.findLast(
        (call) => call.path.endsWith("googleAds:searchStream") && call.body.includes("'2026-10-01' AND '2026-10-08'"),
      );
      expect(asked?.path).toBe("/v24/customers/4445556666/googleAds:searchStream");
      expect(asked?.headers["login-customer-id"]).toBe("1112223333");
      expect(asked?.headers["developer-token"]).toBe("fake-developer-token");
      expect(JSON.parse(asked?.body ?? "{}").query).toBe(
        "SELECT segments.date, customer.currency_code, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions, metrics.conversions_value FROM campaign WHERE segments.date BETWEEN '2026-10-01' AND '2026-10-08'",
      );
      // The comparison period is its own query.
      expect(fake.searches.some((search) => search.query.includes("'2026-09-23' AND '2026-09-30'"))).toBe(true);
    });

    it("by campaign, narrowed to a campaign and ad group, and a directly reached account's keywords", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const range = { startDate: "2026-10-01", endDate: "2026-10-07", comparison: false };
      const days = daysOf("2026-10-01", 7);
      const byCampaign = await widgetData(
        client,
        [
          ads(result.sourceId, {
            reportType: "ad_group",
            dimension: "campaign",
            metrics: ["cost", "clicks", "average_cpc"],
          }),
        ],
        range,
      );
      expect(byCampaign.statusCode).toBe(200);
      const search = activity("4445556666", days, (campaign) => campaign === "201");
      const display = activity("4445556666", days, (campaign) => campaign === "202");
      const campaigns = byCampaign.json().data.current;
      expect(campaigns.dimension).toEqual({ key: "campaign", label: "Campaign", kind: "string" });
      // Google answers a row per ad group and day; the table has one per campaign, most cost first.
      expect(campaigns.rows.map((row: { dimension: string }) => row.dimension)).toEqual([
        "Brand – Search",
        "Remarketing – Display",
      ]);
      expect(campaigns.rows[0].values[0]).toBeCloseTo(search.costMicros / 1e6, 6);
      expect(campaigns.rows[0].values[1]).toBe(search.clicks);
      expect(campaigns.rows[0].values[2]).toBeCloseTo(search.costMicros / 1e6 / search.clicks, 9);
      expect(campaigns.rows[1].values[1]).toBe(display.clicks);
      expect(campaigns.totals[1]).toBe(search.clicks + display.clicks);
      expect(campaigns.totals[2]).toBeCloseTo(
        (search.costMicros + display.costMicros) / 1e6 / (search.clicks + display.clicks),
        9,
      );
      const { ads: fake } = await parts();
      expect(fake.searches.at(-1)?.query).toBe(
        "SELECT campaign.id, campaign.name, customer.currency_code, metrics.cost_micros, metrics.clicks FROM ad_group WHERE segments.date BETWEEN '2026-10-01' AND '2026-10-07'",
      );

      const narrowed = await widgetData(
        client,
        [
          ads(result.sourceId, {
            reportType: "ad",
            campaign: "201",
            adGroup: "301",
            dimension: "ad",
            metrics: ["impressions"],
          }),
        ],
        range,
      );
      expect(narrowed.statusCode).toBe(200);
      const ad401 = activity("4445556666", days, (_c, _g, ad) => ad === "401");
      const ad402 = activity("4445556666", days, (_c, _g, ad) => ad === "402");
      expect(narrowed.json().data.current.rows).toEqual(
        [
          { dimension: "Responsive search ad 401", values: [ad401.impressions] },
          { dimension: "Responsive search ad 402", values: [ad402.impressions] },
        ].sort((a, b) => (b.values[0] ?? 0) - (a.values[0] ?? 0)),
      );
      expect(fake.searches.at(-1)?.query).toBe(
        "SELECT ad_group_ad.ad.id, ad_group_ad.ad.name, ad_group_ad.ad.type, customer.currency_code, metrics.impressions FROM ad_group_ad WHERE segments.date BETWEEN '2026-10-01' AND '2026-10-07' AND campaign.id = 201 AND ad_group.id = 301",
      );

      // An account the login reaches directly: no login-customer-id, its own currency.
      const keywords = await widgetData(
        client,
        [
          ads(result.sourceId, {
            property: "5550001111",
            reportType: "keyword",
            dimension: "keyword",
            metrics: ["clicks", "cost"],
          }),
        ],
        range,
      );
      expect(keywords.statusCode).toBe(200);
      const table = keywords.json().data.current;
      expect(table.rows.map((row: { dimension: string }) => row.dimension).sort()).toEqual([
        '"trail shoes"',
        "[running shoes]",
        "winter boots",
      ]);
      expect(table.metrics[1]).toEqual({ key: "a.cost", label: "Cost", format: "money", currency: "GBP" });
      const last = fake.calls.findLast((call) => call.path.endsWith("googleAds:searchStream"));
      expect(last?.path).toBe("/v24/customers/5550001111/googleAds:searchStream");
      expect(last?.headers["login-customer-id"]).toBeUndefined();
      expect(JSON.parse(last?.body ?? "{}").query).toBe(
        "SELECT ad_group.id, ad_group_criterion.criterion_id, ad_group_criterion.keyword.text, ad_group_criterion.keyword.match_type, customer.currency_code, metrics.clicks, metrics.cost_micros FROM keyword_view WHERE segments.date BETWEEN '2026-10-01' AND '2026-10-07'",
      );
    });

    it("settings Google or the form refuse are the widget's error (422); the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const range = { startDate: "2026-10-01", endDate: "2026-10-03", comparison: false };
      // A client reached through the wrong manager: Google's USER_PERMISSION_DENIED.
      const foreign = await widgetData(
        client,
        [ads(result.sourceId, { property: "5550001111:4445556666", metrics: ["clicks"] })],
        range,
      );
      expect(foreign.statusCode).toBe(422);
      expect(JSON.stringify(foreign.json())).toContain("doesn't have permission to access customer");
      // A manager has no metrics of its own: Google's queryError.
      const manager = await widgetData(
        client,
        [ads(result.sourceId, { property: "1112223333", metrics: ["clicks"] })],
        range,
      );
      expect(manager.statusCode).toBe(422);
      expect(JSON.stringify(manager.json())).toContain("Metrics cannot be requested for a manager account");
      // A dimension the report type does not have is refused before Google is asked.
      const { ads: fake } = await parts();
      const sent = fake.searches.length;
      const dimension = await widgetData(
        client,
        [ads(result.sourceId, { dimension: "keyword", metrics: ["clicks"] })],
        range,
      );
      expect(dimension.statusCode).toBe(422);
      expect(dimension.json().errors["instances.0.inputs.dimension"][0]).toContain(
        "not available in a campaign report",
      );
      const ad = await widgetData(
        client,
        [ads(result.sourceId, { campaign: "201", adGroup: "301", ad: "401", metrics: ["clicks"] })],
        range,
      );
      expect(ad.statusCode).toBe(422);
      expect(fake.searches.length).toBe(sent);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("the fake refuses what Google refuses: no developer token, a field GAQL does not know", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const token = (await storedCredentials(env(), result.sourceId)).access_token;
      const url = `${(await fakes.current()).url}/v24/customers/4445556666/googleAds:searchStream`;
      /** searchStream's failure: an array holding one google.rpc.Status with a GoogleAdsFailure. */
      type Streamed = [{ error: { details: [{ errors: [{ errorCode: unknown; message: string }] }] } }];
      const failureOf = async (response: Response) =>
        ((await response.json()) as Streamed)[0].error.details[0].errors[0];
      const ask = (headers: Record<string, string>, query: string) =>
        fetch(url, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
          body: JSON.stringify({ query }),
        });
      const noToken = await ask({ "login-customer-id": "1112223333" }, "SELECT campaign.id FROM campaign");
      expect(noToken.status).toBe(400);
      expect((await failureOf(noToken)).errorCode).toEqual({
        requestError: "DEVELOPER_TOKEN_PARAMETER_MISSING",
      });
      const badField = await ask(
        { "developer-token": "fake-developer-token", "login-customer-id": "1112223333" },
        "SELECT metrics.clickz FROM campaign WHERE segments.date BETWEEN '2026-10-01' AND '2026-10-02'",
      );
      expect(badField.status).toBe(400);
      expect(await failureOf(badField)).toEqual({
        errorCode: { queryError: "UNRECOGNIZED_FIELD" },
        message: "Unrecognized field in the query: 'metrics.clickz'.",
      });
      // Through the connector, Google's words reach the form.
      (await parts()).ads.failNext.push({
        status: 400,
        body: [
          adsFailure(
            "v24",
            400,
            "INVALID_ARGUMENT",
            { queryError: "UNRECOGNIZED_FIELD" },
            "Unrecognized field in the query: 'metrics.clickz'.",
          ),
        ],
      });
      const refused = await widgetData(client, [ads(result.sourceId, { metrics: ["clicks"] })], {
        startDate: "2026-10-01",
        endDate: "2026-10-02",
        comparison: false,
      });
      expect(refused.statusCode).toBe(422);
      expect(JSON.stringify(refused.json())).toContain("Unrecognized field in the query: 'metrics.clickz'.");
    });

    it("a revoked grant makes the source invalid (banner 125); re-authorising makes it valid again", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const stored = await storedCredentials(env(), result.sourceId);
      const { google } = await parts();
      google.revoked.add(stored.refresh_token ?? "");
      google.expireAccessTokens();
      await expireStoredToken(env(), result.sourceId, stored);
      const response = await widgetData(client, [ads(result.sourceId, { metrics: ["clicks"] })], {
        startDate: "2026-06-01",
        endDate: "2026-06-03",
        comparison: false,
      });
      expect(response.statusCode).not.toBe(200);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
      expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
      const again = await connect(client, { source_id: result.sourceId });
      expect(again.result).toMatchObject({ ok: true, sourceId: result.sourceId });
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("Google down through every retry, nothing stored: Data Error, and the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const { ads: fake } = await parts();
      const unavailable = {
        status: 503,
        body: [{ error: { code: 503, status: "UNAVAILABLE", message: "The service is currently unavailable." } }],
      };
      fake.failNext.push(...Array.from({ length: 8 }, () => unavailable));
      const down = await widgetData(client, [ads(result.sourceId, { metrics: ["cost"] })], {
        startDate: "2026-05-01",
        endDate: "2026-05-03",
        comparison: false,
      });
      expect(down.statusCode).toBe(502);
      expect(down.json()).toMatchObject({ code: "source_error", message: "Data Error" });
      fake.failNext.length = 0;
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("a settled range is served from the database without asking Google again", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const request = {
        type: "googleAds.report",
        inputs: { metrics: ["clicks", "cost"], property: SHOES, reportType: "campaign" },
        range: { startDate: "2026-09-01", endDate: "2026-09-30" },
        timezone: "UTC",
      };
      const { ads: fake } = await parts();
      const asked = () =>
        fake.searches.filter((search) => search.query.includes("BETWEEN '2026-09-01' AND '2026-09-30'")).length;
      const before = asked();
      const first = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(first.notice).toBeNull();
      expect(first.table.totals[0]).toBe(activity("4445556666", daysOf("2026-09-01", 30)).clicks);
      expect(asked()).toBe(before + 1);
      const again = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(again.table).toEqual(first.table);
      expect(asked()).toBe(before + 1);
    });
  },
  fakes.env,
);
