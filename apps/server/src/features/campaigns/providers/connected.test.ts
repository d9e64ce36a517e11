import { shiftDay, type TCampaign, todayInTimezone } from "@app/core";
import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../../test/factories";
import { fakesForFile } from "../../../../test/fakes/app";
import { connectOAuth } from "../../../../test/fakes/oauth-connect";
import { describeEachDb, type TestClient, type TestEnv } from "../../../../test/harness";
import { ACCURANKER_KEYWORDS, accurankerFake, accurankerRank } from "../../../connectors/accuranker/fake";
import { AHREFS_KEY, ahrefsFake, fakeDomainRating } from "../../../connectors/ahrefsV3/fake";
import { fakeGoogleForFile, fakeSearch, fakeValue } from "../../../connectors/google/fake";
import {
  SERANKING_KEY,
  SERANKING_KEYWORDS,
  serankingChecked,
  serankingFake,
  serankingPosition,
} from "../../../connectors/seranking/fake";
import { BACKFILL_DAYS } from "../metrics";
import { addDomain, createGroup, runBackfill, storedRows } from "../test-helpers";
import { CONNECTED_LAG_DAYS, notCoveredHint } from "./connected";

const google = fakeGoogleForFile(afterAll);
const fakes = fakesForFile(afterAll, () => ({
  ahrefs: ahrefsFake(),
  seranking: serankingFake(),
  accuranker: accurankerFake(),
}));

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

/** One metric's stored values by day. */
const series = (rows: Awaited<ReturnType<typeof storedRows>>, metric: string) =>
  new Map(rows.filter((row) => row.metric === metric).map((row) => [row.day, row.value]));

/** A rank tracker's day as rank-tracking.ts counts it: the mean of ranked checks (2 decimals), top-3/10 counts. */
function rankDay(positions: readonly (number | null)[]) {
  const ranked = positions.filter((pos): pos is number => pos !== null && pos > 0);
  return {
    averagePosition:
      ranked.length > 0 ? Math.round((ranked.reduce((sum, pos) => sum + pos, 0) / ranked.length) * 100) / 100 : null,
    keywordsTop3: ranked.filter((pos) => pos <= 3).length,
    keywordsTop10: ranked.filter((pos) => pos <= 10).length,
  };
}

/** The fake SE Ranking's day of project acme.com on its first search engine (null: not checked that day). */
const serankingDay = (day: string) =>
  serankingChecked(day)
    ? rankDay(SERANKING_KEYWORDS.map((keyword) => serankingPosition(keyword.id, day, "1157702")))
    : null;

/** The fake AccuRanker's day of its domain 9001. */
const accurankerDay = (day: string) => rankDay(ACCURANKER_KEYWORDS.map((keyword) => accurankerRank(keyword.id, day)));

describeEachDb(
  "Mission Control: the company's connected sources",
  (env) => {
    it("a domain nothing covers says what to connect; once Search Console has its site, its days are stored", async () => {
      const owner = await buildOwner(env());
      const group = await createGroup(owner.client, "Clients", { metrics_source: "sources" });
      expect(group).toMatchObject({ metrics_source: "sources", metrics_label: "Connected sources" });
      const acme = (await addDomain(owner.client, group.id, "acme.com")).id;
      expect(await shownDomain(owner.client, group.id, acme)).toMatchObject({ metrics_status: "backfilling" });

      // Nothing connected yet.
      await runBackfill(env(), acme);
      expect(await storedRows(env(), acme)).toEqual([]);
      expect(await shownDomain(owner.client, group.id, acme)).toMatchObject({
        metrics_status: "not_covered",
        metrics: [],
        metrics_hint: notCoveredHint("acme.com"),
      });

      // Search Console connected with acme.com's properties; globex.io still has none. The next daily
      // snapshot finds acme.com covered and fetches its whole history, not only the last week.
      await connectOAuth(owner.client, "searchConsole");
      await env()
        .services.get("campaigns")
        .metrics.snapshot({ companyId: owner.company.id, day: shiftDay(latestDay(env()), CONNECTED_LAG_DAYS - 1) });
      const globex = (await addDomain(owner.client, group.id, "globex.io")).id;
      await runBackfill(env(), globex);

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
      const group = await createGroup(owner.client, "Prospects", { metrics_source: "sources" });
      const globex = (await addDomain(owner.client, group.id, "globex.io")).id;
      await runBackfill(env(), globex);
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
      const group = await createGroup(owner.client, "Outage", { metrics_source: "sources" });
      await connectOAuth(owner.client, "searchConsole");
      const acme = (await addDomain(owner.client, group.id, "acme.com")).id;
      await runBackfill(env(), acme);
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

    it("GA4: the property whose web stream is the domain gives sessions, users and conversions per day", async () => {
      const owner = await buildOwner(env());
      await connectOAuth(owner.client, "googleAnalytics");
      const group = await createGroup(owner.client, "Analytics", { metrics_source: "sources" });
      // acme.com: property 2001 (stream https://www.acme.com); shop.acme.com: 2002; globex.io: none.
      const acme = (await addDomain(owner.client, group.id, "acme.com")).id;
      const shop = (await addDomain(owner.client, group.id, "shop.acme.com")).id;
      const globex = (await addDomain(owner.client, group.id, "globex.io")).id;
      for (const id of [acme, shop, globex]) await runBackfill(env(), id);

      const latest = latestDay(env());
      for (const [domainId, property] of [
        [acme, "2001"],
        [shop, "2002"],
      ] as const) {
        const rows = await storedRows(env(), domainId);
        expect(new Set(rows.map((row) => row.metric))).toEqual(new Set(["sessions", "users", "conversions"]));
        const sessions = series(rows, "sessions");
        expect(sessions.size).toBe(BACKFILL_DAYS);
        expect([...sessions.keys()].sort().at(-1)).toBe(latest);
        for (const [metric, apiName] of [
          ["sessions", "sessions"],
          ["users", "activeUsers"],
          ["conversions", "keyEvents"],
        ]) {
          for (const [day, value] of series(rows, metric)) {
            expect(value, `${metric} ${day}`).toBe(fakeValue(apiName, day.replace(/-/g, ""), property));
          }
        }
      }
      const shown = await shownDomain(owner.client, group.id, acme);
      expect(shown).toMatchObject({ metrics_status: "ready", metrics_hint: null });
      expect(shown?.metrics.map((metric) => metric.metric)).toEqual(["sessions", "users", "conversions"]);

      // A property of another site (2003, an app-only 2004) does not cover globex.io.
      expect(await storedRows(env(), globex)).toEqual([]);
      expect(await shownDomain(owner.client, group.id, globex)).toMatchObject({
        metrics_status: "not_covered",
        metrics_hint: notCoveredHint("globex.io"),
      });

      const calls = (await google.current()).calls;
      const streams = calls.filter((call) => call.path === "/v1beta/properties/2001/dataStreams");
      expect(streams.length).toBeGreaterThan(0);
      expect(streams[0]?.headers.authorization).toMatch(/^Bearer ya29\./);
      const report = calls.findLast((call) => call.path === "/v1beta/properties/2001:runReport");
      expect(JSON.parse(report?.body ?? "{}")).toMatchObject({
        dimensions: [{ name: "date" }],
        metrics: [{ name: "sessions" }, { name: "activeUsers" }, { name: "keyEvents" }],
      });
    });

    it("GA4 down fails the snapshot (the job retries); the stored days stay as they were", async () => {
      const owner = await buildOwner(env());
      await connectOAuth(owner.client, "googleAnalytics");
      const group = await createGroup(owner.client, "GA4 outage", { metrics_source: "sources" });
      const acme = (await addDomain(owner.client, group.id, "acme.com")).id;
      await runBackfill(env(), acme);
      const before = await storedRows(env(), acme);
      expect(before.length).toBe(3 * BACKFILL_DAYS);
      const fake = await google.current();
      fake.down.add("2001");
      try {
        await expect(
          env()
            .services.get("campaigns")
            .metrics.snapshot({ companyId: owner.company.id, day: shiftDay(latestDay(env()), 3) }),
        ).rejects.toThrow();
        expect(await storedRows(env(), acme)).toEqual(before);
        expect((await owner.client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      } finally {
        fake.down.delete("2001");
      }
    }, 30_000);

    it("SE Ranking's project for the domain gives the rank metrics, over Search Console's position and Ahrefs' counts", async () => {
      const owner = await buildOwner(env());
      await connectOAuth(owner.client, "searchConsole");
      const ahrefs = await owner.client.api("POST", "/api/sources", {
        name: "ahrefsV3",
        account: "SEO",
        token: AHREFS_KEY,
      });
      expect(ahrefs.statusCode, ahrefs.body).toBe(200);
      const tracker = await owner.client.api("POST", "/api/sources", {
        name: "seranking",
        account: "Acme SEO",
        token: SERANKING_KEY,
      });
      expect(tracker.statusCode, tracker.body).toBe(200);
      const group = await createGroup(owner.client, "Rankings", { metrics_source: "sources" });
      // acme.com: project 1038110 (https://acme.com); acme-shoes.de's project tracks no search engine.
      const acme = (await addDomain(owner.client, group.id, "acme.com")).id;
      const shoes = (await addDomain(owner.client, group.id, "acme-shoes.de")).id;
      for (const id of [acme, shoes]) await runBackfill(env(), id);

      const rows = await storedRows(env(), acme);
      const latest = latestDay(env());
      const position = series(rows, "averagePosition");
      const top3 = series(rows, "keywordsTop3");
      const top10 = series(rows, "keywordsTop10");
      // Every checked day of the 60, none of the unchecked ones (SE Ranking skips some days).
      const checked = Array.from({ length: BACKFILL_DAYS }, (_, index) => shiftDay(latest, -index)).filter(
        serankingChecked,
      );
      expect([...position.keys()].sort()).toEqual([...checked].sort());
      for (const day of checked) {
        const expected = serankingDay(day);
        expect(position.get(day), day).toBe(expected?.averagePosition);
        expect(top3.get(day), day).toBe(expected?.keywordsTop3);
        expect(top10.get(day), day).toBe(expected?.keywordsTop10);
      }
      // The other sources still give their own metrics.
      expect(series(rows, "clicks").get(latest)).toBe(searchDay(latest)?.clicks ?? 0);
      expect(series(rows, "domainRating").get(latest)).toBe(fakeDomainRating("acme.com", latest).domain_rating);

      // Ahrefs covers any domain, but its keyword counts are not mixed into a tracker's.
      const shoesRows = await storedRows(env(), shoes);
      expect(series(shoesRows, "keywordsTop3").size).toBe(BACKFILL_DAYS);
      expect(series(shoesRows, "averagePosition").size).toBe(0);
    });

    it("a rank tracker connected after Search Console replaces the position series whole: no window mixes the two", async () => {
      const owner = await buildOwner(env());
      await connectOAuth(owner.client, "searchConsole");
      const group = await createGroup(owner.client, "Switching", { metrics_source: "sources" });
      const acme = (await addDomain(owner.client, group.id, "acme.com")).id;
      await runBackfill(env(), acme);
      const latest = latestDay(env());
      // The fake has no Search Console rows on every third day of the month: judge the newest day it has.
      const answered = [0, 1, 2].map((back) => shiftDay(latest, -back)).find((day) => searchDay(day) !== null);
      expect(answered).toBeDefined();
      expect(series(await storedRows(env(), acme), "averagePosition").get(answered as string)).toBeCloseTo(
        searchDay(answered as string)?.averagePosition ?? Number.NaN,
        2,
      );

      const tracker = await owner.client.api("POST", "/api/sources", {
        name: "seranking",
        account: "Acme SEO",
        token: SERANKING_KEY,
      });
      expect(tracker.statusCode, tracker.body).toBe(200);
      await env()
        .services.get("campaigns")
        .metrics.snapshot({ companyId: owner.company.id, day: shiftDay(latest, CONNECTED_LAG_DAYS - 1) });

      const rows = await storedRows(env(), acme);
      const position = series(rows, "averagePosition");
      // All 60 days anew, from the tracker only: its checked days, none of Search Console's values left.
      const checked = Array.from({ length: BACKFILL_DAYS }, (_, index) => shiftDay(latest, -index)).filter(
        serankingChecked,
      );
      expect([...position.keys()].sort()).toEqual([...checked].sort());
      for (const day of checked) expect(position.get(day), day).toBe(serankingDay(day)?.averagePosition);
      // Search Console still gives the traffic, for the whole history.
      expect(series(rows, "clicks").size).toBeGreaterThanOrEqual(BACKFILL_DAYS - 5);

      // The same plan the next day: nothing is dropped or refetched beyond the snapshot's days.
      const before = rows.length;
      await env()
        .services.get("campaigns")
        .metrics.snapshot({ companyId: owner.company.id, day: shiftDay(latest, CONNECTED_LAG_DAYS - 1) });
      expect((await storedRows(env(), acme)).length).toBe(before);

      // Search Console removed: its series stay as they were (they stop at their last day, and the
      // no-data rules say so), never deleted with the plan.
      const list = (await owner.client.api("GET", "/api/sources")).json().data as { id: string; name: string }[];
      const searchConsole = list.find((source) => source.name === "searchConsole");
      expect((await owner.client.api("DELETE", `/api/sources/${searchConsole?.id}`)).statusCode).toBe(204);
      await env()
        .services.get("campaigns")
        .metrics.snapshot({ companyId: owner.company.id, day: shiftDay(latest, CONNECTED_LAG_DAYS - 1) });
      const after = await storedRows(env(), acme);
      expect(series(after, "clicks")).toEqual(series(rows, "clicks"));
      expect(series(after, "averagePosition")).toEqual(position);
    });

    it("AccuRanker's domain for the host gives the rank metrics; another host's domain does not cover", async () => {
      const owner = await buildOwner(env());
      const accuranker = (await fakes.current()).parts.accuranker;
      const first = accuranker.domains[0];
      if (first) first.domain = "www.initech.com";
      const connected = await connectOAuth(owner.client, "accuranker", { account: "Acme Agency" });
      expect(connected.result).toMatchObject({ ok: true, connector: "accuranker" });
      const group = await createGroup(owner.client, "Tracked", { metrics_source: "sources" });
      const initech = (await addDomain(owner.client, group.id, "initech.com")).id;
      const globex = (await addDomain(owner.client, group.id, "globex.io")).id;
      for (const id of [initech, globex]) await runBackfill(env(), id);

      const rows = await storedRows(env(), initech);
      expect(new Set(rows.map((row) => row.metric))).toEqual(
        new Set(["averagePosition", "keywordsTop3", "keywordsTop10"]),
      );
      const latest = latestDay(env());
      for (const [metric, values] of [
        ["averagePosition", series(rows, "averagePosition")],
        ["keywordsTop3", series(rows, "keywordsTop3")],
        ["keywordsTop10", series(rows, "keywordsTop10")],
      ] as const) {
        expect(values.size, metric).toBe(BACKFILL_DAYS);
        expect([...values.keys()].sort().at(-1)).toBe(latest);
        for (const [day, value] of values) expect(value, `${metric} ${day}`).toBe(accurankerDay(day)[metric]);
      }
      expect(await storedRows(env(), globex)).toEqual([]);
      expect(await shownDomain(owner.client, group.id, globex)).toMatchObject({ metrics_status: "not_covered" });
    });

    it("a rank tracker down fails the snapshot; the stored days stay as they were", async () => {
      const owner = await buildOwner(env());
      const tracker = await owner.client.api("POST", "/api/sources", {
        name: "seranking",
        account: "Acme SEO",
        token: SERANKING_KEY,
      });
      expect(tracker.statusCode, tracker.body).toBe(200);
      const group = await createGroup(owner.client, "Tracker outage", { metrics_source: "sources" });
      const acme = (await addDomain(owner.client, group.id, "acme.com")).id;
      await runBackfill(env(), acme);
      const before = await storedRows(env(), acme);
      expect(before.length).toBeGreaterThan(0);
      const seranking = (await fakes.current()).parts.seranking;
      seranking.failNext.push(
        ...Array.from({ length: 5 }, () => ({ status: 503, body: { message: "Service Unavailable" } })),
      );
      try {
        await expect(
          env()
            .services.get("campaigns")
            .metrics.snapshot({ companyId: owner.company.id, day: shiftDay(latestDay(env()), 3) }),
        ).rejects.toThrow();
        expect(await storedRows(env(), acme)).toEqual(before);
        expect((await owner.client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      } finally {
        seranking.failNext.length = 0;
      }
    }, 30_000);
  },
  async () => ({ ...(await google.env()), ...(await fakes.env()) }),
);
