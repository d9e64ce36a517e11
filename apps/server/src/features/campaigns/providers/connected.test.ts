import { type DomainMetricKey, shiftDay } from "@app/core";
import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../../test/factories";
import { allFakes } from "../../../../test/fakes/all";
import { type FakeDomainDay, fakesForFile } from "../../../../test/fakes/app";
import { connectToFake } from "../../../../test/fakes/connect";
import { describeEachDb, type TestClient } from "../../../../test/harness";
import { CONNECTORS } from "../../../connectors";
import type { Connector } from "../../../connectors/types";
import { BACKFILL_DAYS } from "../metrics";
import { addDomain, connectedLatestDay, createGroup, runBackfill, series, storedRows } from "../test-helpers";
import { CONNECTED_LAG_DAYS } from "./connected";

/**
 * One source per metric across connectors (connected-plan.ts): a rank tracker's metrics over a search
 * console's position and a backlink index's counts. These need several connectors at once, so they pick
 * them from the registry by what each declares (`domainMetrics`) and read what each fake gives through its
 * `fakeDomainDay` (test/fakes/app.ts); each connector's own Mission Control test is in its folder
 * (`<connector>/domain-metrics.test.ts`).
 */
const fakes = fakesForFile(afterAll, () => allFakes());

const withDomainMetrics = CONNECTORS.filter((connector) => connector.available && connector.domainMetrics);
const gives = (connector: Connector, metric: DomainMetricKey) => connector.domainMetrics?.metrics.includes(metric);
const precedence = (connector: Connector) => connector.domainMetrics?.precedence ?? 0;
const byOrder = (a: Connector, b: Connector) => (a.domainMetrics?.order ?? 0) - (b.domainMetrics?.order ?? 0);
/** The rank tracker: of those giving a position, the first of the highest precedence. */
const tracker = withDomainMetrics
  .filter((connector) => gives(connector, "averagePosition"))
  .sort((a, b) => precedence(b) - precedence(a) || byOrder(a, b))[0];
/** The search console: below the tracker for the position, with the traffic (clicks) only it gives. */
const siteConsole = withDomainMetrics
  .filter((connector) => gives(connector, "clicks") && gives(connector, "averagePosition"))
  .filter((connector) => precedence(connector) < precedence(tracker))
  .sort(byOrder)[0];
/** The backlink index: the Domain Rating, and keyword counts for any domain. */
const backlinks = withDomainMetrics.filter((connector) => gives(connector, "domainRating")).sort(byOrder)[0];

/** What the connector's fake gives Mission Control for a domain on a day (its fake.ts's `fakeDomainDay`). */
async function fakeDayOf(connector: Connector): Promise<FakeDomainDay> {
  const { fakeDomainDay } = (await import(/* @vite-ignore */ `../../../connectors/${connector.key}/fake`)) as {
    fakeDomainDay?: FakeDomainDay;
  };
  if (!fakeDomainDay) throw new Error(`connectors/${connector.key}/fake.ts exports no fakeDomainDay`);
  return fakeDomainDay;
}

const connect = async (client: TestClient, connector: Connector) =>
  connectToFake(client, connector, (await fakes.current()).url);

describeEachDb(
  "Mission Control: the company's connected sources",
  (env) => {
    it("the rank tracker's project for the domain gives the rank metrics, over the search console's position and the backlink index's counts", async () => {
      expect([tracker, siteConsole, backlinks].every(Boolean)).toBe(true);
      const [trackerDay, consoleDay, backlinksDay] = await Promise.all(
        [tracker, siteConsole, backlinks].map(fakeDayOf),
      );
      const owner = await buildOwner(env());
      for (const connector of [siteConsole, backlinks, tracker]) await connect(owner.client, connector);
      const group = await createGroup(owner.client, "Rankings", { metrics_source: "sources" });
      // acme.com: the tracker's project for it; acme-shoes.de: the tracker's project tracks no search engine.
      const acme = (await addDomain(owner.client, group.id, "acme.com")).id;
      const shoes = (await addDomain(owner.client, group.id, "acme-shoes.de")).id;
      for (const id of [acme, shoes]) await runBackfill(env(), id);

      const rows = await storedRows(env(), acme);
      const latest = connectedLatestDay(env());
      const position = series(rows, "averagePosition");
      const top3 = series(rows, "keywordsTop3");
      const top10 = series(rows, "keywordsTop10");
      // Every checked day of the 60, none of the unchecked ones (a tracker skips some days).
      const checked = Array.from({ length: BACKFILL_DAYS }, (_, index) => shiftDay(latest, -index)).filter(
        (day) => trackerDay("acme.com", day) !== null,
      );
      expect([...position.keys()].sort()).toEqual([...checked].sort());
      for (const day of checked) {
        const expected = trackerDay("acme.com", day);
        expect(position.get(day), day).toBe(expected?.averagePosition);
        expect(top3.get(day), day).toBe(expected?.keywordsTop3);
        expect(top10.get(day), day).toBe(expected?.keywordsTop10);
      }
      // The other sources still give their own metrics.
      expect(series(rows, "clicks").get(latest)).toBe(consoleDay("acme.com", latest)?.clicks ?? 0);
      expect(series(rows, "domainRating").get(latest)).toBe(backlinksDay("acme.com", latest)?.domainRating);

      // The backlink index covers any domain, but its keyword counts are not mixed into a tracker's.
      const shoesRows = await storedRows(env(), shoes);
      expect(series(shoesRows, "keywordsTop3").size).toBe(BACKFILL_DAYS);
      expect(series(shoesRows, "averagePosition").size).toBe(0);
    });

    it("a rank tracker connected after the search console replaces the position series whole: no window mixes the two", async () => {
      const [trackerDay, consoleDay] = await Promise.all([tracker, siteConsole].map(fakeDayOf));
      const owner = await buildOwner(env());
      await connect(owner.client, siteConsole);
      const group = await createGroup(owner.client, "Switching", { metrics_source: "sources" });
      const acme = (await addDomain(owner.client, group.id, "acme.com")).id;
      await runBackfill(env(), acme);
      const latest = connectedLatestDay(env());
      // The search console's fake has no rows on some days: judge the newest day it has.
      const answered = [0, 1, 2].map((back) => shiftDay(latest, -back)).find((day) => consoleDay("acme.com", day));
      expect(answered).toBeDefined();
      expect(series(await storedRows(env(), acme), "averagePosition").get(answered as string)).toBeCloseTo(
        consoleDay("acme.com", answered as string)?.averagePosition ?? Number.NaN,
        2,
      );

      await connect(owner.client, tracker);
      await env()
        .services.get("campaigns")
        .metrics.snapshot({ companyId: owner.company.id, day: shiftDay(latest, CONNECTED_LAG_DAYS - 1) });

      const rows = await storedRows(env(), acme);
      const position = series(rows, "averagePosition");
      // All 60 days anew, from the tracker only: its checked days, none of the search console's values left.
      const checked = Array.from({ length: BACKFILL_DAYS }, (_, index) => shiftDay(latest, -index)).filter(
        (day) => trackerDay("acme.com", day) !== null,
      );
      expect([...position.keys()].sort()).toEqual([...checked].sort());
      for (const day of checked) expect(position.get(day), day).toBe(trackerDay("acme.com", day)?.averagePosition);
      // The search console still gives the traffic, for the whole history.
      expect(series(rows, "clicks").size).toBeGreaterThanOrEqual(BACKFILL_DAYS - 5);

      // The same plan the next day: nothing is dropped or refetched beyond the snapshot's days.
      const before = rows.length;
      await env()
        .services.get("campaigns")
        .metrics.snapshot({ companyId: owner.company.id, day: shiftDay(latest, CONNECTED_LAG_DAYS - 1) });
      expect((await storedRows(env(), acme)).length).toBe(before);

      // The search console removed: its series stay as they were (they stop at their last day, and the
      // no-data rules say so), never deleted with the plan.
      const list = (await owner.client.api("GET", "/api/sources")).json().data as { id: string; name: string }[];
      const consoleSource = list.find((source) => source.name === siteConsole.key);
      expect((await owner.client.api("DELETE", `/api/sources/${consoleSource?.id}`)).statusCode).toBe(204);
      await env()
        .services.get("campaigns")
        .metrics.snapshot({ companyId: owner.company.id, day: shiftDay(latest, CONNECTED_LAG_DAYS - 1) });
      const after = await storedRows(env(), acme);
      expect(series(after, "clicks")).toEqual(series(rows, "clicks"));
      expect(series(after, "averagePosition")).toEqual(position);
    });
  },
  () => fakes.env(),
);
