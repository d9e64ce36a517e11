import { shiftDay } from "@app/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, startTestEnv, type TestClient, type TestEnv } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { unseal } from "../../infra/security";
import {
  fakeFollowerDay,
  fakePageDay,
  fakeShareDay,
  LINKEDIN_ORGANIZATIONS,
  LINKEDIN_PREFIX,
  linkedinFake,
} from "../linkedin/fake";
import { earliestDay, statisticsWindow } from ".";

const fakes = fakesForFile(afterAll, () => ({ linkedin: linkedinFake() }));
const linkedin = async () => (await fakes.current()).parts.linkedin;
const calls = async () => (await fakes.current()).calls;

const BAKERY = LINKEDIN_ORGANIZATIONS[0].id;
const SHOES = LINKEDIN_ORGANIZATIONS[1].id;
const today = new Date().toISOString().slice(0, 10);
/** Ten days ending five days ago: inside LinkedIn's 12 months, and settled. */
const DAYS = Array.from({ length: 10 }, (_, index) => shiftDay(today, index - 14));
const RANGE = { startDate: DAYS[0] ?? "", endDate: DAYS[9] ?? "", comparison: false };
const ms = (day: string) => Date.parse(`${day}T00:00:00Z`);

const widget = (sourceId: string, type: string, inputs: Record<string, unknown>) =>
  instance(sourceId, `linkedinSocial.${type}`, { property: String(BAKERY), dimension: "date", ...inputs });

const connect = (client: TestClient, body: Record<string, unknown> = {}) =>
  connectOAuth(client, "linkedinSocial", body);

async function accessToken(env: TestEnv, sourceId: string) {
  const row = await env.ctx.db
    .selectFrom("sources")
    .select("credentials")
    .where("id", "=", sourceId)
    .executeTakeFirstOrThrow();
  return (JSON.parse(unseal(env.ctx.config.appKey, row.credentials ?? "")) as Record<string, string>).access_token;
}

const invalid = async (client: TestClient) => (await client.api("GET", "/api/sources")).json().data[0].invalid;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe("LinkedIn Social's own app", () => {
  it("with only the older shared LinkedIn app, the catalogue names LinkedIn Social's own variables (the Community Management API needs an app of its own)", async () => {
    const env = await startTestEnv("sqlite", { LINKEDIN_CLIENT_ID: "shared", LINKEDIN_CLIENT_SECRET: "shared-secret" });
    try {
      const { client } = await buildOwner(env);
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      const entry = (key: string) => list.find((item: { key: string }) => item.key === key);
      expect(entry("linkedinSocial")).toMatchObject({
        available: false,
        note: "Not configured on this server (set LINKEDIN_SOCIAL_CLIENT_ID and LINKEDIN_SOCIAL_CLIENT_SECRET).",
      });
      expect((await client.api("POST", "/api/oauth/linkedinSocial/start", {})).statusCode).toBe(422);
    } finally {
      await env.close();
    }
  });
});

describe("LinkedIn's 12-month window", () => {
  const now = Date.parse("2026-11-26T10:00:00Z");
  it("starts the day after the same date a year ago, so the request never crosses LinkedIn's edge", () => {
    expect(earliestDay(now)).toBe("2025-11-27");
    expect(earliestDay(Date.parse("2028-02-29T23:00:00Z"))).toBe("2027-03-02");
  });

  it("clamps a range reaching further back, cuts days after today, and leaves a range wholly outside unasked", () => {
    expect(statisticsWindow({ startDate: "2025-11-01", endDate: "2025-12-31" }, now)).toEqual({
      window: { startDate: "2025-11-27", endDate: "2025-12-31" },
      clamped: "2025-11-27",
    });
    expect(statisticsWindow({ startDate: "2026-11-20", endDate: "2026-11-30" }, now)).toEqual({
      window: { startDate: "2026-11-20", endDate: "2026-11-26" },
      clamped: null,
    });
    expect(statisticsWindow({ startDate: "2024-01-01", endDate: "2024-12-31" }, now)).toEqual({
      window: null,
      clamped: "2025-11-27",
    });
  });
});

describeEachDb(
  "LinkedIn Social against a local LinkedIn",
  (env) => {
    it("connects with the organization scopes; the member's name is the account", async () => {
      const { client } = await buildOwner(env());
      const before = (await calls()).length;
      const { consent, result } = await connect(client);
      // The Community Management API's app grants no `openid`/`profile` (no other product may sit beside
      // it): the member's name comes from the Profile API's /v2/me with r_basicprofile.
      expect(consent.searchParams.get("scope")).toBe("r_organization_social rw_organization_admin r_basicprofile");
      const reads = (await calls()).slice(before).filter((call) => call.path.startsWith("/linkedin/v2/"));
      expect(reads.map((call) => call.path)).toEqual(["/linkedin/v2/me"]);
      // The Community Management API's own app (LinkedIn wants it alone on its app), not the Ads app.
      expect(consent.searchParams.get("client_id")).toBe((await linkedin()).socialClientId);
      expect(result).toMatchObject({ ok: true, connector: "linkedinSocial" });
      expect((await client.api("GET", "/api/sources")).json().data[0]).toMatchObject({
        name: "linkedinSocial",
        account: "Grace Hopper",
      });
    });

    it("the organization picker lists the organizations the member administers, with names, over LinkedIn's pages", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const fake = await linkedin();
      fake.pageSize = 1;
      try {
        const before = (await calls()).length;
        const organizations = await client.api("GET", `/api/sources/${result.sourceId}/properties`);
        expect(organizations.json().data).toEqual([
          { value: String(BAKERY), label: "Acme Bakery" },
          { value: String(SHOES), label: "Acme Shoes" },
        ]);
        const acls = (await calls()).slice(before).filter((call) => call.path === "/linkedin/rest/organizationAcls");
        expect(acls.map((call) => call.query)).toEqual([
          { q: "roleAssignee", role: "ADMINISTRATOR", state: "APPROVED", start: "0", count: "100" },
          { q: "roleAssignee", role: "ADMINISTRATOR", state: "APPROVED", start: "1", count: "100" },
        ]);
      } finally {
        fake.pageSize = 2;
      }
    });

    it.each([
      {
        type: "shares",
        path: "organizationalEntityShareStatistics",
        entity: "organizationalEntity",
        metrics: ["impressions", "uniqueImpressions", "clicks", "likes", "comments", "shares", "engagementRate"],
        day: (day: string) => {
          const s = fakeShareDay(BAKERY, day);
          const engaged = s.clickCount + s.likeCount + s.commentCount + s.shareCount;
          return [
            s.impressionCount,
            s.uniqueImpressionsCount,
            s.clickCount,
            s.likeCount,
            s.commentCount,
            s.shareCount,
            (engaged / s.impressionCount) * 100,
          ];
        },
        totals: () => {
          const days = DAYS.map((day) => fakeShareDay(BAKERY, day));
          const impressions = sum(days.map((d) => d.impressionCount));
          const engaged = sum(days.map((d) => d.clickCount + d.likeCount + d.commentCount + d.shareCount));
          return [
            impressions,
            // Daily unique impressions have no range total.
            null,
            sum(days.map((d) => d.clickCount)),
            sum(days.map((d) => d.likeCount)),
            sum(days.map((d) => d.commentCount)),
            sum(days.map((d) => d.shareCount)),
            (engaged / impressions) * 100,
          ];
        },
      },
      {
        type: "followers",
        path: "organizationalEntityFollowerStatistics",
        entity: "organizationalEntity",
        metrics: ["total", "organic", "paid"],
        day: (day: string) => {
          const f = fakeFollowerDay(BAKERY, day);
          return [f.organicFollowerGain + f.paidFollowerGain, f.organicFollowerGain, f.paidFollowerGain];
        },
        totals: () => {
          const days = DAYS.map((day) => fakeFollowerDay(BAKERY, day));
          const organic = sum(days.map((d) => d.organicFollowerGain));
          const paid = sum(days.map((d) => d.paidFollowerGain));
          return [organic + paid, organic, paid];
        },
      },
      {
        type: "pageViews",
        path: "organizationPageStatistics",
        entity: "organization",
        metrics: ["pageViews", "desktopPageViews", "mobilePageViews"],
        day: (day: string) => {
          const v = fakePageDay(BAKERY, day);
          return [v.desktop + v.mobile, v.desktop, v.mobile];
        },
        totals: () => {
          const days = DAYS.map((day) => fakePageDay(BAKERY, day));
          const desktop = sum(days.map((d) => d.desktop));
          const mobile = sum(days.map((d) => d.mobile));
          return [desktop + mobile, desktop, mobile];
        },
      },
    ])(
      "$type by day: the time-bound finder with daily intervals, totals from the days",
      async ({ type, path, entity, metrics, day, totals }) => {
        const { client } = await buildOwner(env());
        const { result } = await connect(client);
        const before = (await calls()).length;
        const response = await widgetData(client, [widget(result.sourceId, type, { metrics })], RANGE);
        expect(response.statusCode).toBe(200);
        const data = response.json().data;
        expect(data.notices).toEqual([]);
        const table = data.current;
        expect(table.dimension).toEqual({ key: "date", label: "Date", kind: "date" });
        expect(table.rows.map((row: { dimension: string }) => row.dimension)).toEqual(DAYS);
        table.rows.forEach((row: { dimension: string; values: number[] }) => {
          const want = day(row.dimension);
          row.values.forEach((value, index) => {
            expect(value).toBeCloseTo(Number(want[index]), 9);
          });
        });
        const want = totals();
        table.totals.forEach((value: number | null, index: number) => {
          if (want[index] === null) expect(value).toBeNull();
          else expect(value).toBeCloseTo(Number(want[index]), 9);
        });
        const asked = (await calls()).slice(before).filter((call) => call.path === `/linkedin/rest/${path}`);
        expect(asked).toHaveLength(1);
        expect(asked[0]?.query).toEqual({
          q: entity,
          [entity]: `urn:li:organization:${BAKERY}`,
          timeIntervals: `(timeRange:(start:${ms(RANGE.startDate)},end:${ms(shiftDay(RANGE.endDate, 1))}),timeGranularityType:DAY)`,
        });
        expect(asked[0]?.headers).toMatchObject({ "linkedin-version": "202610", "x-restli-protocol-version": "2.0.0" });
      },
    );

    it("a range reaching back over 12 months is clamped and says so; the fake refuses it as LinkedIn does", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const earliest = earliestDay(Date.now());
      const range = { startDate: shiftDay(earliest, -3), endDate: shiftDay(earliest, 2), comparison: false };
      const before = (await calls()).length;
      const response = await widgetData(
        client,
        [widget(result.sourceId, "followers", { metrics: ["organic"] })],
        range,
      );
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      const kept = [earliest, shiftDay(earliest, 1), shiftDay(earliest, 2)];
      expect(data.current.rows).toEqual([
        { dimension: shiftDay(earliest, -3), values: [null] },
        { dimension: shiftDay(earliest, -2), values: [null] },
        { dimension: shiftDay(earliest, -1), values: [null] },
        ...kept.map((day) => ({ dimension: day, values: [fakeFollowerDay(BAKERY, day).organicFollowerGain] })),
      ]);
      expect(data.current.totals).toEqual([sum(kept.map((day) => fakeFollowerDay(BAKERY, day).organicFollowerGain))]);
      expect(data.notices).toEqual([
        {
          instanceId: expect.any(String),
          asOf: expect.any(String),
          message: expect.stringMatching(
            /^LinkedIn keeps organization statistics for 12 months: days before .+ have no numbers$/,
          ),
        },
      ]);
      const asked = (await calls())
        .slice(before)
        .filter((call) => call.path === "/linkedin/rest/organizationalEntityFollowerStatistics");
      expect(asked[0]?.query.timeIntervals).toContain(`start:${ms(earliest)},`);

      // Wholly outside: LinkedIn is not asked at all.
      const old = { startDate: shiftDay(earliest, -60), endDate: shiftDay(earliest, -31), comparison: false };
      const middle = (await calls()).length;
      const outside = await widgetData(client, [widget(result.sourceId, "followers", { metrics: ["organic"] })], old);
      expect(outside.statusCode).toBe(200);
      expect(outside.json().data.current.totals).toEqual([null]);
      expect((await calls()).slice(middle).filter((call) => call.path.startsWith("/linkedin/rest/"))).toEqual([]);

      // LinkedIn itself refuses a start older than 12 months.
      const token = await accessToken(env(), result.sourceId);
      const refused = await fetch(
        `${(await fakes.current()).url}${LINKEDIN_PREFIX}/rest/organizationalEntityFollowerStatistics?q=organizationalEntity&organizationalEntity=urn%3Ali%3Aorganization%3A${BAKERY}&timeIntervals=(timeRange:(start:${ms(shiftDay(earliest, -3))},end:${ms(earliest)}),timeGranularityType:DAY)`,
        {
          headers: {
            authorization: `Bearer ${token}`,
            "linkedin-version": "202610",
            "x-restli-protocol-version": "2.0.0",
          },
        },
      );
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { message: string }).message).toContain("past 12 months");
    });

    it("an organization the member no longer administers (403) is the form's 422 in words; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const fake = await linkedin();
      fake.lost.add(SHOES);
      try {
        const refused = await widgetData(
          client,
          [widget(result.sourceId, "shares", { property: String(SHOES), metrics: ["impressions"] })],
          RANGE,
        );
        expect(refused.statusCode).toBe(422);
        expect(JSON.stringify(refused.json())).toContain("no role on the chosen account");
        expect(await invalid(client)).toBe(false);
      } finally {
        fake.lost.delete(SHOES);
      }
    });

    it("an expired token (401, 65602) makes the source invalid with banner 125", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const fake = await linkedin();
      fake.expireAccessTokens();
      const failed = await widgetData(
        client,
        [widget(result.sourceId, "pageViews", { metrics: ["pageViews"] })],
        RANGE,
      );
      expect(failed.statusCode).toBe(502);
      expect(await invalid(client)).toBe(true);
      expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
    });

    it("a settled range is served from the database without asking LinkedIn again", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const request = {
        type: "linkedinSocial.shares",
        inputs: { metrics: ["clicks"], property: String(SHOES) },
        range: { startDate: RANGE.startDate, endDate: RANGE.endDate },
        timezone: "UTC",
      };
      const asked = async () =>
        (await calls()).filter(
          (call) =>
            call.path === "/linkedin/rest/organizationalEntityShareStatistics" &&
            call.query.organizationalEntity === `urn:li:organization:${SHOES}`,
        ).length;
      const before = await asked();
      const first = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(first.table.totals).toEqual([sum(DAYS.map((day) => fakeShareDay(SHOES, day).clickCount))]);
      expect(await asked()).toBe(before + 1);
      const again = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(again.table).toEqual(first.table);
      expect(await asked()).toBe(before + 1);
    });
  },
  fakes.env,
);
