import { shiftDay, type TCampaign, todayInTimezone } from "@app/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../../test/factories";
import { AHREFS_KEY, ahrefsFake, fakeDomainRating } from "../../../../test/fakes/ahrefs";
import { fakesForFile } from "../../../../test/fakes/app";
import { fakeGoogleForFile, fakeSearch } from "../../../../test/fakes/google";
import { connectOAuth } from "../../../../test/fakes/oauth-connect";
import { describeEachDb, type TestClient, type TestEnv } from "../../../../test/harness";
import { BACKFILL_DAYS, BACKFILL_JOB, type TBackfillPayload } from "../metrics";
import { CONNECTED_LAG_DAYS, notCoveredHint, searchConsoleSiteFor } from "./connected";

const google = fakeGoogleForFile(afterAll);
const fakes = fakesForFile(afterAll, () => ({ ahrefs: ahrefsFake() }));

async function createGroup(client: TestClient, name: string): Promise<TCampaign> {
  const response = await client.api("POST", "/api/campaigns", { name, metrics_source: "sources" });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function addDomain(client: TestClient, groupId: string, domain: string): Promise<string> {
  const response = await client.api("POST", `/api/campaigns/${groupId}/domains`, { domain });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id;
}

async function backfill(env: TestEnv, domainId: string) {
  const waiting = await env.ctx.jobs.list(BACKFILL_JOB, "waiting", 1000);
  const job = waiting.find((record) => (record.payload as TBackfillPayload).domainId === domainId);
  expect(job, `a backfill job for ${domainId}`).toBeDefined();
  await env.services.get("campaigns").metrics.backfill(job?.payload as TBackfillPayload);
}

async function storedRows(env: TestEnv, domainId: string) {
  const rows = await env.ctx.db
    .selectFrom("domain_metric_days")
    .select(["metric", "day", "value", "provider"])
    .where("campaign_domain_id", "=", domainId)
    .orderBy("metric")
    .orderBy("day")
    .execute();
  return rows.map((row) => ({ ...row, value: Number(row.value) }));
}

async function shownDomain(client: TestClient, groupId: string, domainId: string) {
  const group = (await client.api("GET", `/api/campaigns/${groupId}`)).json().data as TCampaign;
  return group.domains.find((domain) => domain.id === domainId);
}

/** Search Console's latest complete day: three days ago in UTC. */
const latestDay = (env: TestEnv) => shiftDay(todayInTimezone("UTC", env.ctx.clock.now()), -CONNECTED_LAG_DAYS);

/** The fake Search Console's day of the whole site: its three queries added up (null: Google has no row). */
function searchDay(day: string) {
  const cells = [0, 1, 2].map((query) => fakeSearch(day, query)).filter((cell) => cell !== null);
  if (cells.length === 0) return null;
  const clicks = cells.reduce((sum, cell) => sum + cell.clicks, 0);
  const impressions = cells.reduce((sum, cell) => sum + cell.impressions, 0);
  const position = cells.reduce((sum, cell) => sum + cell.position * cell.impressions, 0) / impressions;
  return { clicks, impressions, ctr: (clicks / impressions) * 100, averagePosition: position };
}

describe("searchConsoleSiteFor", () => {
  it.each([
    ["acme.com", ["https://acme.com/", "sc-domain:acme.com"], "sc-domain:acme.com"],
    ["acme.com", ["https://www.acme.com/"], "https://www.acme.com/"],
    ["acme.com", ["http://acme.com/"], "http://acme.com/"],
    ["blog.acme.com", ["sc-domain:acme.com"], null],
    ["acme.com", ["https://acme.com/shop/"], null],
    ["acme.com", [], null],
  ])("%s among %j is %s", (domain, sites, expected) => {
    expect(searchConsoleSiteFor(domain, sites)).toBe(expected);
  });
});

describeEachDb(
  "Mission Control: the company's connected sources",
  (env) => {
    it("a domain nothing covers says what to connect; once Search Console has its site, its days are stored", async () => {
      const owner = await buildOwner(env());
      const group = await createGroup(owner.client, "Clients");
      expect(group).toMatchObject({ metrics_source: "sources", metrics_label: "Connected sources" });
      const acme = await addDomain(owner.client, group.id, "acme.com");
      expect(await shownDomain(owner.client, group.id, acme)).toMatchObject({ metrics_status: "backfilling" });

      // Nothing connected yet.
      await backfill(env(), acme);
      expect(await storedRows(env(), acme)).toEqual([]);
      expect(await shownDomain(owner.client, group.id, acme)).toMatchObject({
        metrics_status: "not_covered",
        metrics: [],
        metrics_hint: notCoveredHint("acme.com"),
      });

      // Search Console connected with acme.com's properties; globex.io still has none.
      await connectOAuth(owner.client, "searchConsole");
      await backfill(env(), acme);
      const globex = await addDomain(owner.client, group.id, "globex.io");
      await backfill(env(), globex);

      const latest = latestDay(env());
      const rows = await storedRows(env(), acme);
      expect(new Set(rows.map((row) => row.provider))).toEqual(new Set(["sources"]));
      const days = [...new Set(rows.map((row) => row.day))].sort();
      expect(days).toHaveLength(BACKFILL_DAYS);
      expect(days.at(-1)).toBe(latest);
      for (const day of days) {
        const expected = searchDay(day);
        const of = (metric: string) => rows.find((row) => row.day === day && row.metric === metric)?.value;
        // A day Google has no row for: zero clicks and impressions, no CTR or position (not a top rank).
        expect(of("clicks")).toBe(expected?.clicks ?? 0);
        expect(of("impressions")).toBe(expected?.impressions ?? 0);
        if (expected) {
          expect(of("ctr")).toBeCloseTo(expected.ctr, 6);
          expect(of("averagePosition")).toBeCloseTo(expected.averagePosition, 6);
        } else {
          expect(of("ctr")).toBeUndefined();
          expect(of("averagePosition")).toBeUndefined();
        }
      }

      const shown = await shownDomain(owner.client, group.id, acme);
      expect(shown).toMatchObject({ metrics_status: "ready", metrics_hint: null });
      // Only what covers it: Search Console's four metrics, no Ahrefs ones without an Ahrefs source.
      expect(shown?.metrics.map((metric) => metric.metric)).toEqual([
        "clicks",
        "impressions",
        "ctr",
        "averagePosition",
      ]);
      expect(await storedRows(env(), globex)).toEqual([]);
      expect(await shownDomain(owner.client, group.id, globex)).toMatchObject({
        metrics_status: "not_covered",
        metrics_hint: notCoveredHint("globex.io"),
      });
    });

    it("the company's own Ahrefs source covers any domain: its daily history is stored through the source", async () => {
      const owner = await buildOwner(env());
      const connected = await owner.client.api("POST", "/api/sources", {
        name: "ahrefsV3",
        account: "Acme SEO",
        token: AHREFS_KEY,
      });
      expect(connected.statusCode, connected.body).toBe(200);
      const group = await createGroup(owner.client, "Prospects");
      const globex = await addDomain(owner.client, group.id, "globex.io");
      await backfill(env(), globex);
      const latest = latestDay(env());
      const rows = await storedRows(env(), globex);
      expect(new Set(rows.map((row) => row.metric))).toEqual(
        new Set([
          "domainRating",
          "referringDomains",
          "rankedKeywords",
          "keywordsTop3",
          "keywordsTop10",
          "organicTraffic",
        ]),
      );
      expect(rows.find((row) => row.metric === "domainRating" && row.day === latest)?.value).toBe(
        fakeDomainRating("globex.io", latest).domain_rating,
      );
      const calls = (await fakes.current()).calls.filter(
        (call) => call.path === "/v3/site-explorer/refdomains-history",
      );
      expect(calls.at(-1)?.headers.authorization).toBe(`Bearer ${AHREFS_KEY}`);
      expect(await shownDomain(owner.client, group.id, globex)).toMatchObject({ metrics_status: "ready" });
    });

    it("Search Console down fails the snapshot (the job retries); the stored days stay as they were", async () => {
      const owner = await buildOwner(env());
      const group = await createGroup(owner.client, "Outage");
      await connectOAuth(owner.client, "searchConsole");
      const acme = await addDomain(owner.client, group.id, "acme.com");
      await backfill(env(), acme);
      const before = await storedRows(env(), acme);
      expect(before.length).toBeGreaterThan(0);
      const unavailable = {
        status: 503,
        body: { error: { code: 503, status: "UNAVAILABLE", message: "The service is currently unavailable." } },
      };
      const fake = await google.current();
      fake.failNext.push(...Array.from({ length: 8 }, () => unavailable));
      try {
        await expect(
          env()
            .services.get("campaigns")
            .metrics.snapshot({ companyId: owner.company.id, day: shiftDay(latestDay(env()), 3) }),
        ).rejects.toThrow();
        expect(await storedRows(env(), acme)).toEqual(before);
        expect((await owner.client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      } finally {
        fake.failNext.length = 0;
      }
    }, 30_000);
  },
  async () => ({ ...(await google.env()), ...(await fakes.env()) }),
);
