import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb } from "../../../test/harness";
import { BACKFILL_DAYS } from "../../features/campaigns/metrics";
import {
  addDomain,
  connectedLatestDay,
  createGroup,
  rankDay,
  runBackfill,
  series,
  shownDomain,
  storedRows,
} from "../../features/campaigns/test-helpers";
import { ACCURANKER_KEYWORDS, accurankerFake, accurankerRank } from "./fake";

const fakes = fakesForFile(afterAll, () => ({ accuranker: accurankerFake() }));

/** The fake AccuRanker's day of its domain 9001. */
const accurankerDay = (day: string) => rankDay(ACCURANKER_KEYWORDS.map((keyword) => accurankerRank(keyword.id, day)));

describeEachDb(
  "Mission Control: a company's AccuRanker",
  (env) => {
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
      const latest = connectedLatestDay(env());
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
  },
  async () => ({ ...(await fakes.env()) }),
);
