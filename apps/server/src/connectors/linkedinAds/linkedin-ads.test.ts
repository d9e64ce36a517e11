import { afterAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, startTestEnv, type TestClient, type TestEnv } from "../../../test/harness";
import { liveRange } from "../../../test/ranges";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { loadConfig } from "../../infra/config";
import { seal, unseal } from "../../infra/security";
import { fakeAdsSum, LINKEDIN_ACCOUNTS, LINKEDIN_MEMBER, LINKEDIN_PREFIX, linkedinFake } from "../linkedin/fake";
import { classifyLinkedIn } from "../linkedin/shared";

const fakes = fakesForFile(afterAll, () => ({ linkedin: linkedinFake() }));
const linkedin = async () => (await fakes.current()).parts.linkedin;
const calls = async () => (await fakes.current()).calls;

const SHOES = String(LINKEDIN_ACCOUNTS[0].id);
const SHOES_CREATIVES = [810000001, 810000002, 810000003];
const RANGE = { startDate: "2026-10-01", endDate: "2026-10-07", comparison: false };
const DAYS = ["2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04", "2026-10-05", "2026-10-06", "2026-10-07"];
const ALL_METRICS = ["impressions", "clicks", "cost", "conversions", "leads", "ctr", "cpc"];

const ads = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "linkedinAds.analytics", { property: SHOES, ...inputs });

const connect = (client: TestClient, body: Record<string, unknown> = {}) => connectOAuth(client, "linkedinAds", body);

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

/** The values of every metric for sums of the fake's deliveries, as the connector computes them. */
function expected(sum: ReturnType<typeof fakeAdsSum>) {
  return [
    sum.impressions,
    sum.clicks,
    sum.cost,
    sum.conversions,
    sum.leads,
    sum.impressions > 0 ? (sum.clicks / sum.impressions) * 100 : null,
    sum.clicks > 0 ? Math.round((sum.cost / sum.clicks) * 100) / 100 : null,
  ];
}

const invalid = async (client: TestClient) => (await client.api("GET", "/api/sources")).json().data[0].invalid;

describe("LinkedIn's error answers", () => {
  const answer = (status: number, body: unknown) => ({
    status,
    headers: new Headers(),
    body,
    now: Date.UTC(2026, 10, 26, 18),
  });
  it.each([
    [401, { status: 401, serviceErrorCode: 65601, code: "REVOKED_ACCESS_TOKEN", message: "revoked" }, "auth"],
    [401, { status: 401, serviceErrorCode: 65602, code: "EXPIRED_ACCESS_TOKEN", message: "expired" }, "auth"],
    [403, { status: 403, serviceErrorCode: 100, code: "ACCESS_DENIED", message: "Not enough permissions" }, "input"],
    [429, { status: 429, message: "Resource level throttle APPLICATION DAY limit reached" }, "quota"],
    [426, { status: 426, code: "NONEXISTENT_VERSION", message: "Requested version 202410 is not active" }, "server"],
    [503, { status: 503, message: "Service unavailable" }, "server"],
    [400, { status: 400, code: "ILLEGAL_ARGUMENT", message: "Invalid value for param: fields" }, "input"],
  ])("HTTP %i %j is %s", (status, body, kind) => {
    expect(classifyLinkedIn("linkedin", answer(status, body))?.kind).toBe(kind);
  });

  it("a daily limit waits until midnight UTC; an expired version tells the operator what to raise", () => {
    const quota = classifyLinkedIn("linkedin", answer(429, { status: 429, message: "limit" }));
    expect(quota?.retryAfterMs).toBe(6 * 3_600_000);
    const version = classifyLinkedIn(
      "linkedin",
      answer(426, { status: 426, code: "NONEXISTENT_VERSION", message: "Requested version 202410 is not active" }),
    );
    expect(version?.reason).toContain("raise LINKEDIN_VERSION");
    expect(version?.transient).toBe(false);
  });
});

describe("LinkedIn's configuration", () => {
  it("defaults to LinkedIn's own hosts and a recent version; a version not shaped YYYYMM stops start-up", () => {
    expect(loadConfig({ NODE_ENV: "test" }).providers.linkedin).toEqual({
      ads: { clientId: null, clientSecret: null, variables: ["LINKEDIN_ADS_CLIENT_ID", "LINKEDIN_ADS_CLIENT_SECRET"] },
      social: {
        clientId: null,
        clientSecret: null,
        variables: ["LINKEDIN_SOCIAL_CLIENT_ID", "LINKEDIN_SOCIAL_CLIENT_SECRET"],
      },
      authUrl: "https://www.linkedin.com",
      apiUrl: "https://api.linkedin.com",
      version: "202610",
    });
    expect(() => loadConfig({ NODE_ENV: "test", LINKEDIN_VERSION: "2026-10" })).toThrow(/LINKEDIN_VERSION/);
    expect(() => loadConfig({ NODE_ENV: "test", LINKEDIN_VERSION: "202613" })).toThrow(/LINKEDIN_VERSION/);
  });
});

describe("LinkedIn's two apps", () => {
  it("reads Ads' app from LINKEDIN_ADS_CLIENT_*, else the older shared LINKEDIN_CLIENT_*; Social's only from its own pair", () => {
    const shared = loadConfig({ NODE_ENV: "test", LINKEDIN_CLIENT_ID: "shared", LINKEDIN_CLIENT_SECRET: "s" });
    expect(shared.providers.linkedin.ads).toEqual({
      clientId: "shared",
      clientSecret: "s",
      variables: ["LINKEDIN_CLIENT_ID", "LINKEDIN_CLIENT_SECRET"],
    });
    expect(shared.providers.linkedin.social).toMatchObject({ clientId: null, clientSecret: null });
    const own = loadConfig({
      NODE_ENV: "test",
      LINKEDIN_CLIENT_ID: "shared",
      LINKEDIN_CLIENT_SECRET: "s",
      LINKEDIN_ADS_CLIENT_ID: "ads",
      LINKEDIN_SOCIAL_CLIENT_ID: "cm",
      LINKEDIN_SOCIAL_CLIENT_SECRET: "c",
    });
    // Half of the Ads pair set: the Ads pair is meant, and its missing half is named (no mixing with the shared one).
    expect(own.providers.linkedin.ads).toEqual({
      clientId: "ads",
      clientSecret: null,
      variables: ["LINKEDIN_ADS_CLIENT_ID", "LINKEDIN_ADS_CLIENT_SECRET"],
    });
    expect(own.providers.linkedin.social).toMatchObject({ clientId: "cm", clientSecret: "c" });
  });
});

describe("LinkedIn Ads on the older shared app", () => {
  it("is offered with only LINKEDIN_CLIENT_ID and LINKEDIN_CLIENT_SECRET set", async () => {
    const env = await startTestEnv("sqlite", { LINKEDIN_CLIENT_ID: "shared", LINKEDIN_CLIENT_SECRET: "shared-secret" });
    try {
      const { client } = await buildOwner(env);
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "linkedinAds")).toMatchObject({ available: true });
    } finally {
      await env.close();
    }
  });
});

describe("LinkedIn Ads without a LinkedIn app on this server", () => {
  it("is listed as not configured, naming the variables", async () => {
    const env = await startTestEnv("sqlite");
    try {
      const { client } = await buildOwner(env);
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "linkedinAds")).toMatchObject({
        available: false,
        note: "Not configured on this server (set LINKEDIN_ADS_CLIENT_ID and LINKEDIN_ADS_CLIENT_SECRET).",
      });
      expect((await client.api("POST", "/api/oauth/linkedinAds/start", {})).statusCode).toBe(422);
    } finally {
      await env.close();
    }
  });
});

describeEachDb(
  "LinkedIn Ads against a local LinkedIn",
  (env) => {
    it("connects through LinkedIn's consent: the code is exchanged in a form with the client, the member's name is the account", async () => {
      const { client } = await buildOwner(env());
      const fake = await linkedin();
      const before = (await calls()).length;
      const { consent, result } = await connect(client);
      expect(consent.origin + consent.pathname).toBe(`${(await fakes.current()).url}/linkedin/oauth/v2/authorization`);
      expect(consent.searchParams.get("scope")).toBe("r_ads r_ads_reporting openid profile");
      expect(consent.searchParams.get("client_id")).toBe(fake.clientId);
      expect(consent.searchParams.get("code_challenge")).toBeNull();
      expect(result).toMatchObject({ ok: true, connector: "linkedinAds", message: null });

      const token = (await calls()).slice(before).find((call) => call.path === "/linkedin/oauth/v2/accessToken");
      expect(token?.method).toBe("POST");
      expect(Object.fromEntries(new URLSearchParams(token?.body))).toMatchObject({
        grant_type: "authorization_code",
        client_id: fake.clientId,
        client_secret: fake.clientSecret,
        code: expect.stringMatching(/^AQTfakeCode/),
      });
      const stored = await storedCredentials(env(), result.sourceId);
      expect(stored).toMatchObject({ refresh_token: "", member: LINKEDIN_MEMBER.sub });
      expect(stored.access_token).toMatch(/^AQVfakeAccess/);
      const days = (Number(stored.expires_at) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(59);
      expect(days).toBeLessThan(61);
      const sources = (await client.api("GET", "/api/sources")).json().data;
      expect(sources).toEqual([
        expect.objectContaining({ id: result.sourceId, name: "linkedinAds", account: "Grace Hopper", invalid: false }),
      ]);
      expect(JSON.stringify(sources)).not.toContain("AQVfake");
    });

    it("nothing is connected when the member cancels LinkedIn's consent, and the page says so", async () => {
      const { client } = await buildOwner(env());
      (await linkedin()).deny = true;
      const denied = await connect(client);
      expect(denied.back.searchParams.get("error")).toBe("user_cancelled_authorize");
      expect(denied.result).toMatchObject({ ok: false, sourceId: null });
      expect(denied.page.body).toContain(
        "You did not allow access to your LinkedIn Ads account, so nothing was connected.",
      );
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
    });

    it("pickers: ad accounts over LinkedIn's pages with the version headers, campaigns of the chosen account", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const before = (await calls()).length;
      const accounts = await client.api("GET", `/api/sources/${result.sourceId}/properties`);
      expect(accounts.json().data).toEqual([
        { value: "508000002", label: "Acme Careers" },
        { value: "508000001", label: "Acme Shoes EU" },
        { value: "508000003", label: "Old Brand (canceled)" },
      ]);
      const asked = (await calls()).slice(before).filter((call) => call.path === "/linkedin/rest/adAccounts");
      expect(asked).toHaveLength(2);
      expect(asked[0]?.query).toMatchObject({ q: "search", pageSize: "100" });
      expect(asked[1]?.query.pageToken).toBeTruthy();
      expect(asked[0]?.headers).toMatchObject({
        "linkedin-version": "202610",
        "x-restli-protocol-version": "2.0.0",
        authorization: expect.stringMatching(/^Bearer AQVfakeAccess/),
      });
      const campaigns = await client.api(
        "GET",
        `/api/sources/${result.sourceId}/campaigns?type=linkedinAds.analytics&property=${SHOES}`,
      );
      expect(campaigns.json().data).toEqual([
        { value: "710000001", label: "Retargeting" },
        { value: "710000002", label: "Lead gen form" },
        { value: "710000003", label: "Brand video (paused)" },
      ]);
    });

    it.each([
      {
        dimension: "",
        rows: [] as Array<[string, number[]]>,
      },
      {
        dimension: "date",
        rows: DAYS.map((day) => [day, SHOES_CREATIVES] as [string, number[]]),
      },
      {
        // Brand video never delivered: LinkedIn has no element for it, so no row.
        dimension: "campaign",
        rows: [
          ["Retargeting", [810000001, 810000002]],
          ["Lead gen form", [810000003]],
        ] as Array<[string, number[]]>,
      },
      { dimension: "campaignGroup", rows: [["Always on", SHOES_CREATIVES]] as Array<[string, number[]]> },
      {
        dimension: "creative",
        rows: [
          ["Creative 810000002", [810000002]],
          ["Carousel A", [810000001]],
          ["Lead form ad", [810000003]],
        ] as Array<[string, number[]]>,
      },
    ])(
      "numbers by '$dimension': adAnalytics in Rest.li 2.0, names for URNs, CTR and CPC from sums",
      async ({ dimension, rows }) => {
        const { client } = await buildOwner(env());
        const { result } = await connect(client);
        const before = (await calls()).length;
        const response = await widgetData(client, [ads(result.sourceId, { dimension, metrics: ALL_METRICS })], RANGE);
        expect(response.statusCode).toBe(200);
        const table = response.json().data.current;
        expect(table.metrics).toEqual([
          { key: "a.impressions", label: "Impressions", format: "number" },
          { key: "a.clicks", label: "Clicks", format: "number" },
          { key: "a.cost", label: "Amount spent", format: "money", currency: "EUR" },
          { key: "a.conversions", label: "Conversions", format: "number" },
          { key: "a.leads", label: "Leads", format: "number" },
          { key: "a.ctr", label: "CTR", format: "percent" },
          { key: "a.cpc", label: "Avg. CPC", format: "money", currency: "EUR", lowerIsBetter: true },
        ]);
        const expectedRows = rows.map(([label, creatives]) => ({
          dimension: label,
          values: expected(fakeAdsSum(creatives, dimension === "date" ? [label] : DAYS)),
        }));
        // Entity rows come largest spend first.
        if (dimension !== "date") expectedRows.sort((a, b) => Number(b.values[2]) - Number(a.values[2]));
        expect(table.rows.map((row: { dimension: string }) => row.dimension)).toEqual(
          expectedRows.map((row) => row.dimension),
        );
        table.rows.forEach((row: { values: number[] }, index: number) => {
          row.values.forEach((value, metric) => {
            expect(value).toBeCloseTo(Number(expectedRows[index]?.values[metric]), 6);
          });
        });
        const totals = expected(fakeAdsSum(SHOES_CREATIVES, DAYS));
        table.totals.forEach((value: number, metric: number) => {
          expect(value).toBeCloseTo(Number(totals[metric]), 6);
        });

        const analytics = (await calls()).slice(before).filter((call) => call.path === "/linkedin/rest/adAnalytics");
        expect(analytics).toHaveLength(1);
        expect(analytics[0]?.query).toEqual({
          q: "analytics",
          pivot: {
            "": "ACCOUNT",
            date: "ACCOUNT",
            campaign: "CAMPAIGN",
            campaignGroup: "CAMPAIGN_GROUP",
            creative: "CREATIVE",
          }[dimension],
          timeGranularity: dimension === "date" ? "DAILY" : "ALL",
          dateRange: "(start:(year:2026,month:10,day:1),end:(year:2026,month:10,day:7))",
          accounts: `List(urn:li:sponsoredAccount:${SHOES})`,
          fields:
            "dateRange,pivotValues,impressions,clicks,costInLocalCurrency,externalWebsiteConversions,oneClickLeads",
        });
        expect(analytics[0]?.headers["linkedin-version"]).toBe("202610");
      },
    );

    it("a chosen campaign narrows the numbers (campaigns=List(…))", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const before = (await calls()).length;
      const response = await widgetData(
        client,
        [ads(result.sourceId, { campaign: "710000002", metrics: ["impressions", "leads"] })],
        RANGE,
      );
      expect(response.statusCode).toBe(200);
      const sum = fakeAdsSum([810000003], DAYS);
      expect(response.json().data.current.totals).toEqual([sum.impressions, sum.leads]);
      const asked = (await calls()).slice(before).find((call) => call.path === "/linkedin/rest/adAnalytics");
      expect(asked?.query.campaigns).toBe("List(urn:li:sponsoredCampaign:710000002)");
    });

    it("the fake refuses what LinkedIn refuses: no LinkedIn-Version, an expired one, URNs not encoded; without `fields` only impressions and clicks", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const token = (await storedCredentials(env(), result.sourceId)).access_token;
      const base = `${(await fakes.current()).url}${LINKEDIN_PREFIX}/rest/adAnalytics?q=analytics&pivot=CAMPAIGN&timeGranularity=ALL&dateRange=(start:(year:2026,month:10,day:1),end:(year:2026,month:10,day:7))`;
      const encodedAccounts = `&accounts=List(urn%3Ali%3AsponsoredAccount%3A${SHOES})`;
      const headers = { authorization: `Bearer ${token}`, "x-restli-protocol-version": "2.0.0" };

      const noVersion = await fetch(base + encodedAccounts, { headers });
      expect(noVersion.status).toBe(400);
      expect(await noVersion.json()).toMatchObject({ code: "VERSION_MISSING" });
      const old = await fetch(base + encodedAccounts, { headers: { ...headers, "linkedin-version": "202410" } });
      expect(old.status).toBe(426);
      expect(await old.json()).toMatchObject({
        code: "NONEXISTENT_VERSION",
        message: "Requested version 202410 is not active",
      });

      const versioned = { ...headers, "linkedin-version": "202610" };
      const raw = await fetch(`${base}&accounts=List(urn:li:sponsoredAccount:${SHOES})`, { headers: versioned });
      expect(raw.status).toBe(400);
      const bare = await fetch(base + encodedAccounts, { headers: versioned });
      expect(bare.status).toBe(200);
      const elements = ((await bare.json()) as { elements: Record<string, unknown>[] }).elements;
      expect(elements.length).toBeGreaterThan(0);
      for (const element of elements) expect(Object.keys(element).sort()).toEqual(["clicks", "impressions"]);
    });

    it("an ad account the member lost (403 ACCESS_DENIED) is the form's 422 in words; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const fake = await linkedin();
      fake.lost.add(LINKEDIN_ACCOUNTS[0].id);
      try {
        const refused = await widgetData(client, [ads(result.sourceId, { metrics: ["clicks"] })], RANGE);
        expect(refused.statusCode).toBe(422);
        expect(JSON.stringify(refused.json())).toContain("no role on the chosen account");
        expect(await invalid(client)).toBe(false);
      } finally {
        fake.lost.delete(LINKEDIN_ACCOUNTS[0].id);
      }
    });

    // A daily limit (429) and an outage (503): ./scenarios.test.ts.
    it("an expired LINKEDIN_VERSION (426) serves the stored result with a notice; the source stays valid", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const range = liveRange();
      const inputs = { metrics: ["clicks"], property: SHOES };
      const stored = await sources.query(company.id, await sources.load(company.id, result.sourceId), {
        type: "linkedinAds.analytics",
        inputs,
        range,
        timezone: "UTC",
      });
      const fetchedAt = new Date(Date.now() - 20 * 60_000).toISOString();
      await env()
        .ctx.db.updateTable("provider_results")
        .set({ fetched_at: fetchedAt })
        .where("source_id", "=", result.sourceId)
        .execute();
      const fake = await linkedin();
      fake.failNext.push({
        status: 426,
        pathIncludes: "/rest/adAnalytics",
        body: { status: 426, code: "NONEXISTENT_VERSION", message: "Requested version 202610 is not active" },
      });
      const response = await client.api("POST", "/api/widgets/data", {
        instances: [instance(result.sourceId, "linkedinAds.analytics", inputs)],
        timezone: "UTC",
        ...range,
        comparison: false,
      });
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      expect(data.current.totals).toEqual(stored.table.totals);
      expect(data.notices).toEqual([
        { instanceId: expect.any(String), asOf: fetchedAt, message: "LinkedIn Ads is not answering" },
      ]);
      expect(await invalid(client)).toBe(false);
      fake.failNext.length = 0;
    });

    it("an expired LINKEDIN_VERSION with nothing stored is an error naming the variable, not the user's fault", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const fake = await linkedin();
      fake.oldestVersion = "202611";
      try {
        const sources = env().services.get("sources");
        await expect(
          sources.query(company.id, await sources.load(company.id, result.sourceId), {
            type: "linkedinAds.analytics",
            inputs: { metrics: ["clicks"], property: SHOES },
            range: { startDate: "2026-09-01", endDate: "2026-09-02" },
            timezone: "UTC",
          }),
        ).rejects.toMatchObject({ kind: "server", reason: expect.stringContaining("raise LINKEDIN_VERSION") });
        expect(await invalid(client)).toBe(false);
      } finally {
        fake.oldestVersion = "202512";
      }
    });

    it("a revoked token (401, 65601) makes the source invalid with banner 125; reconnecting keeps the source", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const fake = await linkedin();
      fake.revoked.add((await storedCredentials(env(), result.sourceId)).access_token ?? "");
      const failed = await widgetData(client, [ads(result.sourceId, { metrics: ["clicks"] })], RANGE);
      expect(failed.statusCode).toBe(502);
      expect(await invalid(client)).toBe(true);
      expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
      const again = await connect(client, { source_id: result.sourceId });
      expect(again.result).toMatchObject({ ok: true, sourceId: result.sourceId });
      expect(await invalid(client)).toBe(false);
    });

    it("an expired 60-day token without a refresh token makes the source invalid without asking LinkedIn", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const stored = await storedCredentials(env(), result.sourceId);
      await storeCredentials(env(), result.sourceId, { ...stored, expires_at: String(Date.now() - 1000) });
      const before = (await calls()).length;
      const expired = await client.api("GET", `/api/sources/${result.sourceId}/properties`);
      expect(expired.statusCode).toBe(502);
      expect(await invalid(client)).toBe(true);
      expect((await calls()).slice(before).filter((call) => call.path.startsWith("/linkedin/"))).toEqual([]);
    });

    it("with a refresh token (approved apps) an expired token is refreshed and written back; a refused refresh is invalid", async () => {
      const { client } = await buildOwner(env());
      const fake = await linkedin();
      fake.issueRefreshTokens = true;
      try {
        const { result } = await connect(client);
        const first = await storedCredentials(env(), result.sourceId);
        expect(first.refresh_token).toMatch(/^AQXfakeRefresh/);
        fake.expireAccessTokens();
        await storeCredentials(env(), result.sourceId, { ...first, expires_at: "0" });
        const before = (await calls()).length;
        const accounts = await client.api("GET", `/api/sources/${result.sourceId}/properties`);
        expect(accounts.statusCode).toBe(200);
        const refresh = (await calls()).slice(before).find((call) => call.path === "/linkedin/oauth/v2/accessToken");
        expect(Object.fromEntries(new URLSearchParams(refresh?.body))).toMatchObject({
          grant_type: "refresh_token",
          refresh_token: first.refresh_token,
          client_id: fake.clientId,
          client_secret: fake.clientSecret,
        });
        const after = await storedCredentials(env(), result.sourceId);
        expect(after.access_token).not.toBe(first.access_token);
        expect(after).toMatchObject({ refresh_token: first.refresh_token, member: LINKEDIN_MEMBER.sub });
        expect(Number(after.expires_at)).toBeGreaterThan(Date.now() + 59 * 86_400_000);

        fake.revoked.add(after.refresh_token ?? "");
        await storeCredentials(env(), result.sourceId, { ...after, expires_at: "0" });
        const refused = await client.api("GET", `/api/sources/${result.sourceId}/properties`);
        expect(refused.statusCode).toBe(502);
        expect(await invalid(client)).toBe(true);
      } finally {
        fake.issueRefreshTokens = false;
      }
    });

    it("a settled range is served from the database without asking LinkedIn again", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const request = {
        type: "linkedinAds.analytics",
        inputs: { metrics: ["impressions"], property: SHOES },
        range: { startDate: "2026-09-01", endDate: "2026-09-30" },
        timezone: "UTC",
      };
      const asked = async () =>
        (await calls()).filter(
          (call) => call.path === "/linkedin/rest/adAnalytics" && call.query.dateRange?.includes("month:9,day:30"),
        ).length;
      const before = await asked();
      const first = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      const september = Array.from({ length: 30 }, (_, i) => `2026-09-${String(i + 1).padStart(2, "0")}`);
      expect(first.table.totals).toEqual([fakeAdsSum(SHOES_CREATIVES, september).impressions]);
      expect(await asked()).toBe(before + 1);
      const again = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(again.table).toEqual(first.table);
      expect(await asked()).toBe(before + 1);
    });

    it("deleting the source revokes the token (POST /oauth/v2/revoke with the client)", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const fake = await linkedin();
      const token = (await storedCredentials(env(), result.sourceId)).access_token ?? "";
      expect(fake.live(token)).toBe(true);
      expect((await client.api("DELETE", `/api/sources/${result.sourceId}`)).statusCode).toBe(204);
      const revoke = (await calls()).filter((call) => call.path === "/linkedin/oauth/v2/revoke").at(-1);
      expect(Object.fromEntries(new URLSearchParams(revoke?.body))).toEqual({
        token,
        client_id: fake.clientId,
        client_secret: fake.clientSecret,
      });
      expect(fake.live(token)).toBe(false);
    });
  },
  fakes.env,
);
