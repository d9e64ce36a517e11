import { shiftDay } from "@app/core";
import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../../test/factories";
import { fakesForFile } from "../../../../test/fakes/app";
import { connectOAuth } from "../../../../test/fakes/oauth-connect";
import { describeEachDb } from "../../../../test/harness";
import { AHREFS_KEY, ahrefsFake, fakeDomainRating } from "../../../connectors/ahrefsV3/fake";
import { fakeGoogleForFile } from "../../../connectors/google/fake";
import { fakeSiteDay } from "../../../connectors/searchConsole/fake";
import {
  SERANKING_KEY,
  SERANKING_KEYWORDS,
  serankingChecked,
  serankingFake,
  serankingPosition,
} from "../../../connectors/seranking/fake";
import { BACKFILL_DAYS } from "../metrics";
import { addDomain, connectedLatestDay, createGroup, rankDay, runBackfill, series, storedRows } from "../test-helpers";
import { CONNECTED_LAG_DAYS } from "./connected";

/**
 * One source per metric across connectors (connected-plan.ts): a rank tracker's metrics over Search
 * Console's position and Ahrefs' counts. Each connector's own Mission Control test is in its folder
 * (`<connector>/domain-metrics.test.ts`); these need several connectors at once.
 */
const google = fakeGoogleForFile(afterAll);
const fakes = fakesForFile(afterAll, () => ({ ahrefs: ahrefsFake(), seranking: serankingFake() }));

/** The fake SE Ranking's day of project acme.com on its first search engine (null: not checked that day). */
const serankingDay = (day: string) =>
  serankingChecked(day)
    ? rankDay(SERANKING_KEYWORDS.map((keyword) => serankingPosition(keyword.id, day, "1157702")))
    : null;

describeEachDb(
  "Mission Control: the company's connected sources",
  (env) => {
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
      const latest = connectedLatestDay(env());
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
      expect(series(rows, "clicks").get(latest)).toBe(fakeSiteDay(latest)?.clicks ?? 0);
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
      const latest = connectedLatestDay(env());
      // The fake has no Search Console rows on every third day of the month: judge the newest day it has.
      const answered = [0, 1, 2].map((back) => shiftDay(latest, -back)).find((day) => fakeSiteDay(day) !== null);
      expect(answered).toBeDefined();
      expect(series(await storedRows(env(), acme), "averagePosition").get(answered as string)).toBeCloseTo(
        fakeSiteDay(answered as string)?.averagePosition ?? Number.NaN,
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
  },
  async () => ({ ...(await google.env()), ...(await fakes.env()) }),
);
