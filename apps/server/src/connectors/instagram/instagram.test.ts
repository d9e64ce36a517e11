import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";
import {
  fakeIgTotal,
  fakeIgValue,
  fakeMediaValue,
  META_BUSINESS_PAGES,
  META_MEDIA,
  META_PAGES,
  META_USER,
  metaFake,
} from "../meta/fake";

const fakes = fakesForFile(afterAll, () => ({ meta: metaFake() }));
const meta = async () => (await fakes.current()).parts.meta;
const calls = async () => (await fakes.current()).calls;

const BAKERY_IG = META_PAGES[0].ig.id;
const SHOES_IG = META_PAGES[1].ig.id;
const POST = META_MEDIA[1].id;

const ig = (sourceId: string, inputs: Record<string, unknown>, overrides: Record<string, unknown> = {}) =>
  instance(sourceId, "instagram.insights", { property: BAKERY_IG, target: "profile", ...inputs }, overrides);
const connect = (client: TestClient, body: Record<string, unknown> = {}) => connectOAuth(client, "instagram", body);
const insightsCalls = async (node: string, since: number) =>
  (await calls()).slice(since).filter((call) => call.path === `/v25.0/${node}/insights`);

describeEachDb(
  "Instagram against a local Meta",
  (env) => {
    it("connects with the Instagram permissions and lists the accounts linked to the login's Pages", async () => {
      const { client } = await buildOwner(env());
      const { consent, result } = await connect(client);
      expect(consent.searchParams.get("scope")).toBe(
        "instagram_basic,instagram_manage_insights,pages_show_list,pages_read_engagement,business_management",
      );
      expect(result).toMatchObject({ ok: true, connector: "instagram" });
      expect((await client.api("GET", "/api/sources")).json().data[0]).toMatchObject({
        name: "instagram",
        account: META_USER.name,
      });
      const accounts = await client.api("GET", `/api/sources/${result.sourceId}/properties`);
      // The third Page has no Instagram account: not listed. A client's Page shared with the agency's
      // Business portfolio is reached through it (business_management), with its Instagram account.
      expect(accounts.json().data).toEqual([
        { value: BAKERY_IG, label: "@acme.bakery (Acme Bakery)" },
        { value: SHOES_IG, label: "@acmeshoes (Acme Shoes)" },
        { value: META_BUSINESS_PAGES[0].ig.id, label: "@northwind.dental (Northwind Dental)" },
      ]);
    });

    it("the post picker reads the posts' pages by cursor, none after the last, and at most two", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const state = await meta();
      const mediaCalls = async (since: number) =>
        (await calls()).slice(since).filter((call) => call.path === `/v25.0/${BAKERY_IG}/media`);
      const listed = async () =>
        (await client.api("GET", `/api/sources/${result.sourceId}/posts?property=${BAKERY_IG}&target=post`))
          .json()
          .data.map((option: { value: string }) => option.value);
      try {
        // Two a page: the three posts in two answers, the second without a next page.
        state.mediaPageSize = 2;
        let before = (await calls()).length;
        expect(await listed()).toEqual(META_MEDIA.map((media) => media.id));
        expect((await mediaCalls(before)).map((call) => call.query.after ?? null)).toEqual([null, expect.any(String)]);
        // One a page: the picker's bound (the newest two pages) holds; older posts are not asked for.
        state.mediaPageSize = 1;
        before = (await calls()).length;
        expect(await listed()).toEqual([META_MEDIA[0].id, META_MEDIA[1].id]);
        expect(await mediaCalls(before)).toHaveLength(2);
      } finally {
        state.mediaPageSize = 100;
      }
    });

    it("the post picker lists the account's posts by date and caption; metrics depend on the target", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const before = (await calls()).length;
      const posts = await client.api("GET", `/api/sources/${result.sourceId}/posts?property=${BAKERY_IG}&target=post`);
      expect(posts.statusCode).toBe(200);
      expect(posts.json().data).toEqual([
        { value: META_MEDIA[0].id, label: "2026-10-20 · Autumn sourdough is back" },
        { value: META_MEDIA[1].id, label: "2026-10-10 · Behind the scenes at 4 am" },
        { value: META_MEDIA[2].id, label: "2026-09-30 · carousel album" },
      ]);
      const asked = (await calls()).slice(before).find((call) => call.path === `/v25.0/${BAKERY_IG}/media`);
      expect(asked?.query.fields).toBe("id,caption,media_type,timestamp,permalink");
      expect((await client.api("GET", `/api/sources/${result.sourceId}/posts`)).statusCode).toBe(422);
      const postMetrics = (await client.api("GET", `/api/sources/${result.sourceId}/metrics?target=post`)).json().data;
      expect(postMetrics.map((option: { value: string }) => option.value)).toEqual([
        "reach",
        "views",
        "likes",
        "comments",
        "saved",
        "shares",
        "total_interactions",
      ]);
      const profileMetrics = (await client.api("GET", `/api/sources/${result.sourceId}/metrics?target=profile`)).json()
        .data;
      expect(profileMetrics).toContainEqual({ value: "accounts_engaged", label: "Accounts engaged" });
      expect(profileMetrics.map((option: { value: string }) => option.value)).not.toContain("impressions");
    });

    it("profile totals are Meta's total_value over the range (reach de-duplicated); no post needed for the profile", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const before = (await calls()).length;
      const range = { startDate: "2026-10-01", endDate: "2026-10-10" };
      const metrics = ["reach", "views", "total_interactions", "accounts_engaged"];
      const response = await widgetData(client, [ig(result.sourceId, { metrics })], range);
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.dimension).toBeNull();
      expect(table.metrics).toEqual([
        { key: "a.reach", label: "Accounts reached", format: "number" },
        { key: "a.views", label: "Views", format: "number" },
        { key: "a.total_interactions", label: "Interactions", format: "number" },
        { key: "a.accounts_engaged", label: "Accounts engaged", format: "number" },
      ]);
      expect(table.totals).toEqual(metrics.map((metric) => fakeIgTotal(metric, "2026-10-01", "2026-10-11", BAKERY_IG)));
      // The range's call, whichever answered first: the previous period is asked at the same time.
      const asked = (await insightsCalls(BAKERY_IG, before)).filter((call) => call.query.since === "2026-10-01");
      expect(asked[0]?.query).toMatchObject({
        metric: metrics.join(","),
        period: "day",
        metric_type: "total_value",
        since: "2026-10-01",
        until: "2026-10-11",
      });
      expect(asked[0]?.headers.authorization).toMatch(/^Bearer EAAfakeLong/);
    });

    it("by date: reach as Meta's daily series, each end_time mapped to its day; other metrics by date are refused in words", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const before = (await calls()).length;
      const range = { startDate: "2026-10-30", endDate: "2026-11-02" };
      const response = await widgetData(
        client,
        [ig(result.sourceId, { dimension: "date", metrics: ["reach"] })],
        range,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.rows).toEqual(
        ["2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02"].map((day) => ({
          dimension: day,
          values: [fakeIgValue("reach", day, BAKERY_IG)],
        })),
      );
      expect(table.totals).toEqual([fakeIgTotal("reach", "2026-10-30", "2026-11-03", BAKERY_IG)]);
      // The comparison period is asked at the same time: pick the current range's daily series.
      const series = (await insightsCalls(BAKERY_IG, before)).find(
        (call) => call.query.metric_type === undefined && call.query.since === "2026-10-30",
      );
      expect(series?.query).toMatchObject({ metric: "reach", period: "day", since: "2026-10-30", until: "2026-11-03" });

      const refused = await widgetData(client, [
        ig(result.sourceId, { dimension: "date", metrics: ["reach", "views"] }),
      ]);
      expect(refused.statusCode).toBe(422);
      expect(JSON.stringify(refused.json())).toContain("Instagram gives views only as a total over the range");
    });

    it("a range longer than 30 days is asked in windows; counts add up, unique accounts have no total", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const before = (await calls()).length;
      const range = { startDate: "2026-08-01", endDate: "2026-09-14" };
      const response = await widgetData(client, [ig(result.sourceId, { metrics: ["views", "reach"] })], range);
      expect(response.statusCode).toBe(200);
      // The comparison period (the 45 days before) is asked too; these are the current range's calls.
      const asked = (await insightsCalls(BAKERY_IG, before)).filter((call) => (call.query.since ?? "") >= "2026-08-01");
      expect(asked.map((call) => [call.query.since, call.query.until])).toEqual([
        ["2026-08-01", "2026-08-31"],
        ["2026-08-31", "2026-09-15"],
      ]);
      expect(response.json().data.current.totals).toEqual([
        fakeIgTotal("views", "2026-08-01", "2026-08-31", BAKERY_IG) +
          fakeIgTotal("views", "2026-08-31", "2026-09-15", BAKERY_IG),
        null,
      ]);
    });

    it("a post's lifetime insights: post required for target=post, no comparison period", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const missing = await widgetData(client, [ig(result.sourceId, { target: "post", metrics: ["likes"] })]);
      expect(missing.statusCode).toBe(422);
      expect(JSON.stringify(missing.json())).toContain("The post field is required.");

      const before = (await calls()).length;
      const metrics = ["reach", "views", "likes", "comments", "saved", "shares"];
      const response = await client.api("POST", "/api/widgets/data", {
        instances: [ig(result.sourceId, { target: "post", post: POST, metrics })],
        timezone: "UTC",
        startDate: "2026-10-01",
        endDate: "2026-10-31",
        comparison: true,
      });
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      expect(data.current.totals).toEqual(metrics.map((metric) => fakeMediaValue(metric, POST)));
      expect(data.current.metrics[4]).toEqual({ key: "a.saved", label: "Saves", format: "number" });
      expect(data.previous).toBeNull();
      const asked = await insightsCalls(POST, before);
      expect(asked).toHaveLength(1);
      expect(asked[0]?.query.metric).toBe(metrics.join(","));
    });

    it("a metric Meta removed (impressions) is the form's error in Meta's words; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const refused = await widgetData(client, [ig(result.sourceId, { metrics: ["impressions"] })]);
      expect(refused.statusCode).toBe(422);
      expect(JSON.stringify(refused.json())).toContain("(#100) metric[0] must be one of the following values");
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });

    it("a settled range (older than Instagram's 3 days) is served from the database without asking Meta again", async () => {
      const { client, company } = await buildOwner(env());
      const { result } = await connect(client);
      const sources = env().services.get("sources");
      const request = {
        type: "instagram.insights",
        inputs: { metrics: ["reach", "views"], property: BAKERY_IG, target: "profile" },
        range: { startDate: "2026-09-01", endDate: "2026-09-20" },
        timezone: "UTC",
      };
      const asked = async () =>
        (await insightsCalls(BAKERY_IG, 0)).filter(
          (call) => call.query.since === "2026-09-01" && call.query.until === "2026-09-21",
        ).length;
      const before = await asked();
      const first = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(first.notice).toBeNull();
      expect(first.table.totals).toEqual(
        ["reach", "views"].map((metric) => fakeIgTotal(metric, "2026-09-01", "2026-09-21", BAKERY_IG)),
      );
      expect(await asked()).toBe(before + 1);
      // Hours later (the 15-minute freshness long over): still not asked, because the range has settled.
      await env()
        .ctx.db.updateTable("provider_results")
        .set({ fetched_at: new Date(Date.now() - 6 * 3_600_000).toISOString() })
        .where("source_id", "=", result.sourceId)
        .execute();
      const again = await sources.query(company.id, await sources.load(company.id, result.sourceId), request);
      expect(again.table).toEqual(first.table);
      expect(again.notice).toBeNull();
      expect(await asked()).toBe(before + 1);
    });

    it("a dead token (code 190) makes the source invalid with banner 125", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connect(client);
      const fake = await meta();
      fake.revoked.add(META_USER.id);
      try {
        const failed = await widgetData(client, [ig(result.sourceId, { metrics: ["views"] })], {
          startDate: "2026-10-01",
          endDate: "2026-10-02",
        });
        expect(failed.statusCode).toBe(502);
        expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
        expect(JSON.stringify((await client.api("GET", "/api/page-data")).json())).toContain("125");
      } finally {
        fake.revoked.delete(META_USER.id);
      }
    });
  },
  fakes.env,
);
