import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakesForFile } from "../../../test/fakes/app";
import { describeEachDb } from "../../../test/harness";
import {
  addDomain,
  connectedLatestDay,
  createGroup,
  runBackfill,
  shownDomain,
  storedRows,
} from "../../features/campaigns/test-helpers";
import { AHREFS_KEY, ahrefsFake, fakeDomainRating } from "./fake";

const fakes = fakesForFile(afterAll, () => ({ ahrefs: ahrefsFake() }));

describeEachDb(
  "Mission Control: a company's Ahrefs source",
  (env) => {
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
      const latest = connectedLatestDay(env());
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
  },
  async () => ({ ...(await fakes.env()) }),
);
