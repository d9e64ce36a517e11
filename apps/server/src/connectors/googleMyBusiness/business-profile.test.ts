import { shiftDay } from "@app/core";
import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { seal, unseal } from "../../infra/security";
import { googleFake } from "../google/fake";
import { reportableDays } from ".";
import { businessProfileFake, fakeDailyValue } from "./fake";

const fakes = fakesForFile(afterAll, () => {
  const google = googleFake();
  return { google, profile: businessProfileFake(google.state) };
});
const parts = async () => (await fakes.current()).parts;

const connect = (client: TestClient, body: Record<string, unknown> = {}) =>
  connectOAuth(client, "googleMyBusiness", body);

const TYPE = "googleMyBusiness.performance";
const gbp = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, TYPE, { property: "7001", profile: "8101", ...inputs });

const SURFACES = [
  "BUSINESS_IMPRESSIONS_DESKTOP_MAPS",
  "BUSINESS_IMPRESSIONS_DESKTOP_SEARCH",
  "BUSINESS_IMPRESSIONS_MOBILE_MAPS",
  "BUSINESS_IMPRESSIONS_MOBILE_SEARCH",
];

const today = () => new Date().toISOString().slice(0, 10);
const daysOf = (start: string, end: string) => {
  const out: string[] = [];
  for (let day = start; day <= end; day = shiftDay(day, 1)) out.push(day);
  return out;
};
const impressionsOn = (day: string, location = "8101") =>
  SURFACES.reduce((sum, metric) => sum + fakeDailyValue(metric, day, location), 0);

/** The Performance API calls asking for a range starting on `start`. */
const performanceCalls = async (start: string) => {
  const [year, month, day] = start.split("-").map(Number);
  return (await parts()).profile.performanceQueries.filter(
    (query) =>
      query.get("dailyRange.start_date.year") === String(year) &&
      query.get("dailyRange.start_date.month") === String(month) &&
      query.get("dailyRange.start_date.day") === String(day),
  );
};

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

describeEachDb(
  "Google Business Profile against a local Google",
  (env) => {
    it("connects through Google's consent with the business.manage scope", async () => {
      const { client } = await buildOwner(env());
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "googleMyBusiness")).toMatchObject({
        displayName: "Google My Business",
        order: 4,
        available: true,
        note: null,
      });
      const { consent, result } = await connect(client);
      expect(consent.searchParams.get("scope")?.split(" ")).toEqual([
        "https://www.googleapis.com/auth/business.manage",
        "openid",
        "email",
      ]);
      expect(consent.searchParams.get("access_type")).toBe("offline");
      expect(result).toMatchObject({ ok: true, connector: "googleMyBusiness", message: null });
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([
        expect.objectContaining({ id: result.sourceId, name: "googleMyBusiness", invalid: false }),
      ]);
    });

    it("lists every account across Google's pages, then an account's locations (readMask sent)", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const running = await fakes.current();
      const before = running.calls.length;
      expect((await client.api("GET", `/api/sources/${result.sourceId}/properties`)).json().data).toEqual([
        { value: "7001", label: "Acme Bakeries" },
        { value: "7002", label: "Jane Doe" },
        { value: "7003", label: "Client Three" },
      ]);
      const accountCalls = running.calls.slice(before).filter((call) => call.path === "/v1/accounts");
      expect(accountCalls.map((call) => call.query)).toEqual([
        { pageSize: "20" },
        { pageSize: "20", pageToken: "offset-2" },
      ]);

      const locations = await client.api("GET", `/api/sources/${result.sourceId}/profiles?type=${TYPE}&property=7001`);
      expect(locations.json().data).toEqual([
        { value: "8101", label: "Acme Bakery Mitte (Berlin)" },
        { value: "8102", label: "Acme Bakery Altona (Hamburg)" },
      ]);
      const call = running.calls.findLast((entry) => entry.path === "/v1/accounts/7001/locations");
      expect(call?.query).toMatchObject({ readMask: "name,title,storefrontAddress", pageSize: "100" });
      expect(call?.headers.authorization).toMatch(/^Bearer ya29\./);
      const noAccount = await client.api("GET", `/api/sources/${result.sourceId}/profiles?type=${TYPE}`);
      expect(noAccount.statusCode).toBe(422);
      expect(noAccount.json().errors.property).toEqual(["Choose an account first."]);

      // The fake refuses what Google refuses: no readMask, no bearer token.
      const token = (await storedCredentials(env(), result.sourceId)).access_token;
      const bare = await fetch(`${running.url}/v1/accounts/7001/locations`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(bare.status).toBe(400);
      expect(((await bare.json()) as { error: unknown }).error).toMatchObject({ status: "INVALID_ARGUMENT" });
      expect((await fetch(`${running.url}/v1/accounts`)).status).toBe(401);
    });

    it("by date: every day of the range, impressions summed over surfaces, zero days as 0, totals as sums", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const start = shiftDay(today(), -40);
      const end = shiftDay(today(), -34);
      const metrics = ["impressions", "CALL_CLICKS", "WEBSITE_CLICKS", "BUSINESS_DIRECTION_REQUESTS"];
      // The fakes serve both databases' runs of this file: calls are counted from here.
      const comparisonsBefore = (await performanceCalls(shiftDay(start, -7))).length;
      const response = await widgetData(client, [gbp(result.sourceId, { dimension: "date", metrics })], {
        startDate: start,
        endDate: end,
      });
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.dimension).toEqual({ key: "date", label: "Date", kind: "date" });
      expect(table.metrics).toEqual([
        { key: "a.impressions", label: "Impressions", format: "number" },
        { key: "a.CALL_CLICKS", label: "Calls", format: "number" },
        { key: "a.WEBSITE_CLICKS", label: "Website clicks", format: "number" },
        { key: "a.BUSINESS_DIRECTION_REQUESTS", label: "Direction requests", format: "number" },
      ]);
      const days = daysOf(start, end);
      expect(table.rows).toEqual(
        days.map((day) => ({
          dimension: day,
          values: [
            impressionsOn(day),
            fakeDailyValue("CALL_CLICKS", day, "8101"),
            fakeDailyValue("WEBSITE_CLICKS", day, "8101"),
            fakeDailyValue("BUSINESS_DIRECTION_REQUESTS", day, "8101"),
          ],
        })),
      );
      // Seven days always hold a day whose calls Google left out (no value): it reads 0, not a gap.
      const quiet = days.find((day) => Number(day.slice(8)) % 4 === 0) as string;
      expect(table.rows.find((row: { dimension: string }) => row.dimension === quiet).values[1]).toBe(0);
      expect(table.totals).toEqual([
        days.reduce((sum, day) => sum + impressionsOn(day), 0),
        days.reduce((sum, day) => sum + fakeDailyValue("CALL_CLICKS", day, "8101"), 0),
        days.reduce((sum, day) => sum + fakeDailyValue("WEBSITE_CLICKS", day, "8101"), 0),
        days.reduce((sum, day) => sum + fakeDailyValue("BUSINESS_DIRECTION_REQUESTS", day, "8101"), 0),
      ]);
      expect(table.totals[0]).toBeGreaterThan(7 * 4 * 40);

      // What Google saw: the location, each daily metric once as a repeated parameter, the date parts.
      const [query] = await performanceCalls(start);
      expect(query?.getAll("dailyMetrics").sort()).toEqual(
        [...SURFACES, "CALL_CLICKS", "WEBSITE_CLICKS", "BUSINESS_DIRECTION_REQUESTS"].sort(),
      );
      const [endYear, endMonth, endDay] = end.split("-").map(Number);
      expect(query?.get("dailyRange.end_date.year")).toBe(String(endYear));
      expect(query?.get("dailyRange.end_date.month")).toBe(String(endMonth));
      expect(query?.get("dailyRange.end_date.day")).toBe(String(endDay));
      const call = (await fakes.current()).calls.findLast((entry) =>
        entry.path.endsWith(":fetchMultiDailyMetricsTimeSeries"),
      );
      expect(call?.path).toMatch(/^\/v1\/locations\/8101:fetchMultiDailyMetricsTimeSeries$/);
      // The comparison period is its own call: the seven days before.
      expect(await performanceCalls(shiftDay(start, -7))).toHaveLength(comparisonsBefore + 1);
    });

    it("without a dimension only totals; by surface one row per surface; other metrics cannot be split by surface", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const start = shiftDay(today(), -60);
      const end = shiftDay(today(), -31);
      const days = daysOf(start, end);
      const range = { startDate: start, endDate: end, comparison: false };
      const plain = await widgetData(
        client,
        [gbp(result.sourceId, { profile: "8201", metrics: ["BUSINESS_IMPRESSIONS_MOBILE_MAPS", "BUSINESS_BOOKINGS"] })],
        range,
      );
      expect(plain.statusCode).toBe(200);
      const table = plain.json().data.current;
      expect(table.dimension).toBeNull();
      expect(table.rows).toEqual([]);
      expect(table.totals).toEqual([
        days.reduce((sum, day) => sum + fakeDailyValue("BUSINESS_IMPRESSIONS_MOBILE_MAPS", day, "8201"), 0),
        days.reduce((sum, day) => sum + fakeDailyValue("BUSINESS_BOOKINGS", day, "8201"), 0),
      ]);
      const [query] = await performanceCalls(start);
      expect(query?.getAll("dailyMetrics")).toEqual(["BUSINESS_IMPRESSIONS_MOBILE_MAPS", "BUSINESS_BOOKINGS"]);

      const bySurface = await widgetData(
        client,
        [gbp(result.sourceId, { dimension: "surface", metrics: ["impressions", "BUSINESS_IMPRESSIONS_DESKTOP_MAPS"] })],
        range,
      );
      const surfaces = bySurface.json().data.current;
      const total = (metric: string) => days.reduce((sum, day) => sum + fakeDailyValue(metric, day, "8101"), 0);
      expect(surfaces.dimension).toEqual({ key: "surface", label: "Surface", kind: "string" });
      expect(surfaces.rows).toEqual([
        { dimension: "Google Maps, desktop", values: [total(SURFACES[0] as string), total(SURFACES[0] as string)] },
        { dimension: "Google Search, desktop", values: [total(SURFACES[1] as string), null] },
        { dimension: "Google Maps, mobile", values: [total(SURFACES[2] as string), null] },
        { dimension: "Google Search, mobile", values: [total(SURFACES[3] as string), null] },
      ]);
      expect(surfaces.totals).toEqual([
        days.reduce((sum, day) => sum + impressionsOn(day), 0),
        total(SURFACES[0] as string),
      ]);

      const refused = await widgetData(
        client,
        [gbp(result.sourceId, { dimension: "surface", metrics: ["impressions", "CALL_CLICKS"] })],
        range,
      );
      expect(refused.statusCode).toBe(422);
      expect(JSON.stringify(refused.json())).toContain("Only impressions can be split by surface");
    });

    it("days Google cannot report (over 18 months back, after today) show no value and are not asked for", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const { earliest, latest } = reportableDays();
      const start = shiftDay(earliest, -3);
      const end = shiftDay(earliest, 3);
      const [fromEarliest, fromStart] = [
        (await performanceCalls(earliest)).length,
        (await performanceCalls(start)).length,
      ];
      const response = await widgetData(
        client,
        [gbp(result.sourceId, { dimension: "date", metrics: ["WEBSITE_CLICKS"] })],
        { startDate: start, endDate: end },
      );
      expect(response.statusCode).toBe(200);
      const { current, previous } = response.json().data;
      const asked = daysOf(earliest, end);
      expect(current.rows).toEqual([
        ...daysOf(start, shiftDay(earliest, -1)).map((day) => ({ dimension: day, values: [null] })),
        ...asked.map((day) => ({ dimension: day, values: [fakeDailyValue("WEBSITE_CLICKS", day, "8101")] })),
      ]);
      expect(current.totals).toEqual([
        asked.reduce((sum, day) => sum + fakeDailyValue("WEBSITE_CLICKS", day, "8101"), 0),
      ]);
      // Google was asked from the earliest day it keeps; the comparison week lies wholly before it: not asked.
      expect(await performanceCalls(earliest)).toHaveLength(fromEarliest + 1);
      expect(await performanceCalls(start)).toHaveLength(fromStart);
      expect(previous.totals).toEqual([null]);

      // A range running into the future is asked up to today at most (Google refuses future end dates).
      const recent = await widgetData(client, [gbp(result.sourceId, { metrics: ["CALL_CLICKS"] })], {
        startDate: shiftDay(today(), -2),
        endDate: shiftDay(today(), 2),
        comparison: false,
      });
      expect(recent.statusCode).toBe(200);
      const [query] = await performanceCalls(shiftDay(today(), -2));
      const sentEnd = [
        query?.get("dailyRange.end_date.year"),
        query?.get("dailyRange.end_date.month")?.padStart(2, "0"),
        query?.get("dailyRange.end_date.day")?.padStart(2, "0"),
      ].join("-");
      expect(sentEnd).toBe(latest);
    });

    it("a location the login cannot read is the widget's 422 in Google's words; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const refused = await widgetData(client, [gbp(result.sourceId, { profile: "8999", metrics: ["CALL_CLICKS"] })], {
        startDate: shiftDay(today(), -20),
        endDate: shiftDay(today(), -14),
      });
      expect(refused.statusCode).toBe(422);
      expect(JSON.stringify(refused.json())).toContain("The caller does not have permission");
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("Google down: the source stays valid; a stored result is served with 'Data as of …'", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const profile = (await parts()).profile;
      profile.down.add("8102");
      try {
        const down = await widgetData(
          client,
          [gbp(result.sourceId, { profile: "8102", metrics: ["WEBSITE_CLICKS"] })],
          { startDate: shiftDay(today(), -30), endDate: shiftDay(today(), -24), comparison: false },
        );
        expect(down.statusCode).toBe(502);
        expect(down.json()).toMatchObject({ code: "source_error", message: "Data Error" });
        expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      } finally {
        profile.down.delete("8102");
      }

      const sources = env().services.get("sources");
      const range = { startDate: shiftDay(today(), -6), endDate: today() };
      const inputs = { metrics: ["impressions"], profile: "8101", property: "7001" };
      const stored = await sources.query(company.id, await sources.load(company.id, result.sourceId), {
        type: TYPE,
        inputs,
        range,
        timezone: "UTC",
      });
      expect(stored.table.totals[0]).toBeGreaterThan(0);
      // Twenty minutes later the range (touching today) is due again, and Google answers 503 throughout.
      const fetchedAt = new Date(Date.now() - 20 * 60_000).toISOString();
      await env()
        .ctx.db.updateTable("provider_results")
        .set({ fetched_at: fetchedAt })
        .where("source_id", "=", result.sourceId)
        .execute();
      profile.down.add("8101");
      try {
        const response = await client.api("POST", "/api/widgets/data", {
          instances: [gbp(result.sourceId, { metrics: ["impressions"] })],
          timezone: "UTC",
          ...range,
          comparison: false,
        });
        expect(response.statusCode).toBe(200);
        const data = response.json().data;
        expect(data.current.totals).toEqual(stored.table.totals);
        expect(data.notices).toEqual([
          { instanceId: expect.any(String), asOf: fetchedAt, message: "Google My Business is not answering" },
        ]);
      } finally {
        profile.down.delete("8101");
      }
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("Google throttling (429 RESOURCE_EXHAUSTED, Retry-After) serves the stored result with a notice; the source stays valid", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const range = { startDate: shiftDay(today(), -6), endDate: today() };
      const inputs = { metrics: ["impressions"], profile: "8102", property: "7001" };
      const stored = await sources.query(company.id, await sources.load(company.id, result.sourceId), {
        type: TYPE,
        inputs,
        range,
        timezone: "UTC",
      });
      expect(stored.table.totals[0]).toBeGreaterThan(0);
      const fetchedAt = new Date(Date.now() - 20 * 60_000).toISOString();
      await env()
        .ctx.db.updateTable("provider_results")
        .set({ fetched_at: fetchedAt })
        .where("source_id", "=", result.sourceId)
        .execute();
      const profile = (await parts()).profile;
      const asked = profile.performanceQueries.length;
      // A short Retry-After is waited out and asked again (a long one would hold the location in this
      // process and starve the file's later tests): Google refuses all three attempts.
      const throttled = {
        status: 429,
        headers: { "retry-after": "1" },
        pathIncludes: "/locations/8102:",
        body: {
          error: {
            code: 429,
            message:
              "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service 'businessprofileperformance.googleapis.com'.",
            status: "RESOURCE_EXHAUSTED",
          },
        },
      };
      profile.failNext.push(throttled, throttled, throttled);
      const response = await widgetData(client, [gbp(result.sourceId, { profile: "8102", metrics: ["impressions"] })], {
        ...range,
        comparison: false,
      });
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      expect(data.current.totals).toEqual(stored.table.totals);
      expect(data.notices).toEqual([
        { instanceId: expect.any(String), asOf: fetchedAt, message: "Google My Business is limiting requests" },
      ]);
      expect(profile.performanceQueries.length).toBe(asked + 3);
      expect(profile.failNext).toEqual([]);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("a revoked grant makes the source invalid (banner 125)", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const credentials = await storedCredentials(env(), result.sourceId);
      const { google } = await parts();
      google.revoked.add(credentials.refresh_token ?? "");
      google.expireAccessTokens();
      await storeCredentials(env(), result.sourceId, { ...credentials, expires_at: "0" });
      const response = await widgetData(client, [gbp(result.sourceId, { metrics: ["CALL_CLICKS"] })], {
        startDate: shiftDay(today(), -15),
        endDate: shiftDay(today(), -9),
      });
      expect(response.statusCode).toBe(502);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
      expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
    });

    it("a settled range is served from the database without asking Google again", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const range = { startDate: shiftDay(today(), -70), endDate: shiftDay(today(), -64) };
      const request = {
        type: TYPE,
        inputs: { metrics: ["BUSINESS_DIRECTION_REQUESTS"], profile: "8102", property: "7001" },
        range,
        timezone: "UTC",
      };
      const before = (await performanceCalls(range.startDate)).length;
      const first = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(first.notice).toBeNull();
      expect(first.table.totals).toEqual([
        daysOf(range.startDate, range.endDate).reduce(
          (sum, day) => sum + fakeDailyValue("BUSINESS_DIRECTION_REQUESTS", day, "8102"),
          0,
        ),
      ]);
      expect(await performanceCalls(range.startDate)).toHaveLength(before + 1);
      const again = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(again.table).toEqual(first.table);
      expect(await performanceCalls(range.startDate)).toHaveLength(before + 1);
    });
  },
  fakes.env,
);
