import { afterAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import { seal, unseal } from "../../infra/security";
import { KEYWORD_FIELDS, windows } from ".";
import { ACCURANKER_PREFIX, accurankerFake } from "./fake";

const fakes = fakesForFile(afterAll, () => ({ accuranker: accurankerFake() }));
const fake = async () => (await fakes.current()).parts.accuranker;
const calls = async () => (await fakes.current()).calls;
const apiCalls = async (path: string) =>
  (await calls()).filter((call) => call.path === `${ACCURANKER_PREFIX}/api/v4${path}`);

const DOMAIN = "9001";
const KEYWORDS_PATH = `/domains/${DOMAIN}/keywords/`;
const FIRST_DAYS = { startDate: "2026-10-01", endDate: "2026-10-03", comparison: false };

async function connect(client: TestClient, account = "Acme Agency"): Promise<string> {
  const connected = await connectOAuth(client, "accuranker", { account });
  expect(connected.result).toMatchObject({ ok: true, connector: "accuranker" });
  return connected.result.sourceId;
}

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

const rankings = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "accuranker.rankings", { property: DOMAIN, ...inputs });
const keywordTable = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "accuranker.keywords", { property: DOMAIN, ...inputs });

describe("AccuRanker's 100-day windows", () => {
  it.each([
    [{ startDate: "2026-10-01", endDate: "2026-10-03" }, [["2026-10-01", "2026-10-03"]]],
    [{ startDate: "2026-01-01", endDate: "2026-04-10" }, [["2026-01-01", "2026-04-10"]]],
    [
      { startDate: "2026-01-01", endDate: "2026-04-11" },
      [
        ["2026-01-01", "2026-04-10"],
        ["2026-04-11", "2026-04-11"],
      ],
    ],
    [
      { startDate: "2026-01-01", endDate: "2026-10-31" },
      [
        ["2026-01-01", "2026-04-10"],
        ["2026-04-11", "2026-07-19"],
        ["2026-07-20", "2026-10-27"],
        ["2026-10-28", "2026-10-31"],
      ],
    ],
  ])("%o is asked as %o", (range, expected) => {
    expect(windows(range).map((window) => [window.startDate, window.endDate])).toEqual(expected);
  });
});

describeEachDb(
  "AccuRanker against a local AccuRanker",
  (env) => {
    it("asks for the account before the consent screen: none is a 422 on `account`", async () => {
      const { client } = await buildOwner(env());
      const list = (await client.api("GET", "/api/configs/connectors")).json().data;
      expect(list.find((entry: { key: string }) => entry.key === "accuranker")).toMatchObject({
        displayName: "AccuRanker",
        order: 20,
        authKind: "oauth2",
        available: true,
        oauthAccount: "AccuRanker account",
      });
      for (const body of [{}, { account: "   " }]) {
        const started = await client.api("POST", "/api/oauth/accuranker/start", body);
        expect(started.statusCode).toBe(422);
        expect(started.json().errors).toEqual({ account: ["Please fill out this field."] });
      }
    });

    it("an account the login cannot see fails the connection in words; nothing is connected", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connectOAuth(client, "accuranker", { account: "Nope Inc" });
      expect(result).toMatchObject({
        ok: false,
        sourceId: null,
        message: "This AccuRanker login has no account named Nope Inc.",
      });
      expect((await client.api("GET", "/api/sources")).json().data).toEqual([]);
    });

    it("a known account (by name, any case, or by id) becomes the source's account; its id is stored", async () => {
      const { client } = await buildOwner(env());
      const { consent, result } = await connectOAuth(client, "accuranker", { account: " acme agency " });
      expect(result).toMatchObject({ ok: true, connector: "accuranker" });
      expect(consent.pathname).toBe(`${ACCURANKER_PREFIX}/oauth/authorize/`);
      expect(consent.searchParams.get("scope")).toBe("read");
      expect(consent.searchParams.get("response_type")).toBe("code");
      const token = (await calls()).findLast((call) => call.path === `${ACCURANKER_PREFIX}/oauth/token/`);
      expect(Object.fromEntries(new URLSearchParams(token?.body ?? ""))).toMatchObject({
        grant_type: "authorization_code",
        client_id: (await fake()).clientId,
        client_secret: (await fake()).clientSecret,
      });
      const accounts = (await apiCalls("/accounts/")).at(-1);
      expect(accounts?.query).toEqual({ fields: "id,name" });
      expect(accounts?.headers.authorization).toMatch(/^Bearer acc-access-/);
      expect(await storedCredentials(env(), result.sourceId)).toMatchObject({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        account_id: "311",
      });
      const byId = await connect(client, "312");
      const sources = (await client.api("GET", "/api/sources")).json().data;
      expect(sources.map((source: { id: string; account: string }) => [source.id, source.account]).sort()).toEqual(
        [
          [result.sourceId, "Acme Agency"],
          [byId, "Other Agency"],
        ].sort(),
      );
      expect((await storedCredentials(env(), byId)).account_id).toBe("312");
    });

    it("lists the domains (fields named), and the fake answers empty objects without fields as AccuRanker does", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const domains = await client.api("GET", `/api/sources/${id}/properties?type=accuranker.rankings`);
      expect(domains.json().data).toEqual([
        { value: "9001", label: "Acme" },
        { value: "9002", label: "shop.example" },
      ]);
      expect((await apiCalls("/domains/")).at(-1)?.query).toEqual({ fields: "id,domain,display_name" });
      const token = (await storedCredentials(env(), id)).access_token;
      const bare = await fetch(`${(await fakes.current()).url}${ACCURANKER_PREFIX}/api/v4/domains/`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(await bare.json()).toEqual([{}, {}]);
    });

    it("average rank over time and keywords in the top 3/10/100: checks averaged, counts on the last day", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const metrics = ["averagePosition", "top3", "top10", "top100"];
      const byDay = await widgetData(client, [rankings(id, { dimension: "date", metrics })], FIRST_DAYS);
      expect(byDay.statusCode).toBe(200);
      const table = byDay.json().data.current;
      expect(table.metrics[0]).toEqual({
        key: "a.averagePosition",
        label: "Average position",
        format: "number",
        lowerIsBetter: true,
      });
      // Ranks base + day % 3 for bases 1, 3, 9, 40; "wedding cakes" is never in the top 100.
      expect(table.rows).toEqual([
        { dimension: "2026-10-01", values: [14.25, 1, 3, 4] },
        { dimension: "2026-10-02", values: [15.25, 1, 2, 4] },
        { dimension: "2026-10-03", values: [13.25, 2, 3, 4] },
      ]);
      expect(table.totals).toEqual([14.25, 2, 3, 4]);
      const asked = (await apiCalls(KEYWORDS_PATH)).at(-1);
      expect(asked?.query).toEqual({ fields: KEYWORD_FIELDS, period_from: "2026-10-01", period_to: "2026-10-03" });

      const byKeyword = (await widgetData(client, [rankings(id, { dimension: "keyword", metrics })], FIRST_DAYS)).json()
        .data.current;
      expect(byKeyword.rows).toEqual([
        { dimension: "bakery amsterdam", values: [2, 1, 1, 1] },
        { dimension: "sourdough bread", values: [4, 1, 1, 1] },
        { dimension: "best croissant", values: [10, 0, 1, 1] },
        { dimension: "gluten free cake", values: [41, 0, 0, 1] },
        { dimension: "wedding cakes", values: [null, 0, 0, 0] },
      ]);
    });

    it("the keyword table: the last rank, positions gained over the range, the search volume", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const response = await widgetData(
        client,
        [keywordTable(id, { metrics: ["rank", "change", "searchVolume"] })],
        FIRST_DAYS,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.dimension).toEqual({ key: "keyword", label: "Keyword", kind: "string" });
      expect(table.metrics).toEqual([
        { key: "a.rank", label: "Rank", format: "number", lowerIsBetter: true },
        { key: "a.change", label: "Change", format: "number" },
        { key: "a.searchVolume", label: "Search volume", format: "number" },
      ]);
      expect(table.rows).toEqual([
        { dimension: "bakery amsterdam", values: [1, 1, 2400] },
        { dimension: "sourdough bread", values: [3, 1, 1900] },
        { dimension: "best croissant", values: [9, 1, 880] },
        { dimension: "gluten free cake", values: [40, 1, 320] },
        { dimension: "wedding cakes", values: [null, null, 5400] },
      ]);
    });

    it("a seventeen-month range is asked in six 100-day windows, at most 4 at once, and stitched per keyword", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const before = (await apiCalls(KEYWORDS_PATH)).length;
      const range = { startDate: "2025-06-01", endDate: "2026-10-31" };
      const accuranker = await fake();
      accuranker.maxInFlight = 0;
      // Requests sent together are held until four overlap (or half a second), however busy the machine.
      accuranker.gather = 4;
      const response = await widgetData(client, [rankings(id, { dimension: "date", metrics: ["averagePosition"] })], {
        ...range,
        comparison: false,
      }).finally(() => {
        accuranker.gather = 0;
      });
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.rows).toHaveLength(518);
      expect(table.rows[0]).toEqual({ dimension: "2025-06-01", values: [14.25] });
      expect(table.rows.find((row: { dimension: string }) => row.dimension === "2026-07-04").values).toEqual([14.25]);
      expect(table.rows.at(-1)).toEqual({ dimension: "2026-10-31", values: [14.25] });
      const windowsAsked = (await apiCalls(KEYWORDS_PATH))
        .slice(before)
        .map((call) => [call.query.period_from, call.query.period_to]);
      expect(windowsAsked).toHaveLength(6);
      expect(windowsAsked.sort()).toEqual(windows(range).map((window) => [window.startDate, window.endDate]));
      // Six windows asked together, never more than AccuRanker's 4 simultaneous connections.
      expect((await fake()).maxInFlight).toBe(4);
    });

    it("an expired token is refreshed once for simultaneous queries; the rotated tokens and the account are stored", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      const stored = await storedCredentials(env(), id);
      (await fake()).expireAccessTokens();
      await storeCredentials(env(), id, { ...stored, expires_at: "0" });
      const refreshes = (await fake()).refreshes;
      const response = await widgetData(
        client,
        [rankings(id, { dimension: "date", metrics: ["top10"] }), keywordTable(id, { metrics: ["rank"] })],
        FIRST_DAYS,
      );
      expect(response.statusCode).toBe(200);
      expect((await fake()).refreshes).toBe(refreshes + 1);
      const renewed = await storedCredentials(env(), id);
      expect(renewed.access_token).not.toBe(stored.access_token);
      expect(renewed.refresh_token).not.toBe(stored.refresh_token);
      expect(renewed.account_id).toBe("311");
    });

    it("a period or plan AccuRanker refuses is the form's 422 in its words; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      for (const body of [
        { detail: "The period can be at most 100 days." },
        { message: "The active plan for this account does not allow access to this endpoint." },
      ]) {
        (await fake()).failNext.push({ status: body.detail ? 400 : 403, pathIncludes: "/keywords/", body });
        const refused = await widgetData(client, [keywordTable(id, { metrics: ["rank"] })], FIRST_DAYS);
        expect(refused.statusCode).toBe(422);
        expect(JSON.stringify(refused.json())).toContain(body.detail ?? body.message);
      }
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("a token AccuRanker no longer accepts makes the source invalid with banner 125", async () => {
      const { client } = await buildOwner(env());
      const id = await connect(client);
      (await fake()).revoked.add((await storedCredentials(env(), id)).access_token ?? "");
      const response = await widgetData(client, [keywordTable(id, { metrics: ["rank"] })], FIRST_DAYS);
      expect(response.statusCode).toBe(502);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
      expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
    });

    // Last: AccuRanker's limits are per IP, so a throttled answer holds every AccuRanker request of the
    // process back until its Retry-After has passed.
    it("throttling (429 with Retry-After) serves the stored numbers with a notice; the source stays valid", async () => {
      const { client, company } = await buildOwner(env());
      const id = await connect(client);
      const sources = env().services.get("sources");
      const today = new Date().toISOString().slice(0, 10);
      const range = { startDate: "2026-11-01", endDate: today };
      // Declared keys sorted, as the widget data path normalises them (the stored result is found by them).
      const inputs = { dimension: "date", metrics: ["top3"], property: DOMAIN };
      const stored = await sources.query(company.id, await sources.load(company.id, id), {
        type: "accuranker.rankings",
        inputs,
        range,
        timezone: "UTC",
      });
      await env()
        .ctx.db.updateTable("provider_results")
        .set({ fetched_at: new Date(Date.now() - 20 * 60_000).toISOString() })
        .where("source_id", "=", id)
        .execute();
      (await fake()).failNext.push(
        ...Array.from({ length: 3 }, () => ({
          status: 429,
          pathIncludes: "/keywords/",
          headers: { "retry-after": "120" },
          body: { detail: "Request was throttled. Expected available in 120 seconds." },
        })),
      );
      const response = await client.api("POST", "/api/widgets/data", {
        instances: [rankings(id, inputs)],
        timezone: "UTC",
        ...range,
        comparison: false,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.current.totals).toEqual(stored.table.totals);
      expect(response.json().data.notices).toEqual([
        { instanceId: expect.any(String), asOf: expect.any(String), message: "AccuRanker is limiting requests" },
      ]);
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      (await fake()).failNext.length = 0;
    });
  },
  fakes.env,
);
