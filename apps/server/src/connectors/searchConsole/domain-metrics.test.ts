import { shiftDay } from "@app/core";
import { afterAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb } from "../../../test/harness";
import { BACKFILL_DAYS } from "../../features/campaigns/metrics";
import { CONNECTED_LAG_DAYS, notCoveredHint } from "../../features/campaigns/providers/connected";
import {
  addDomain,
  connectedLatestDay,
  createGroup,
  runBackfill,
  shownDomain,
  storedRows,
} from "../../features/campaigns/test-helpers";
import { fakeGoogleForFile } from "../google/fake";
import { searchConsoleSiteFor } from "./domain-metrics";
import { fakeSiteDay } from "./fake";

const google = fakeGoogleForFile(afterAll);

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
  "Mission Control: a company's Search Console",
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
        .metrics.snapshot({
          companyId: owner.company.id,
          day: shiftDay(connectedLatestDay(env()), CONNECTED_LAG_DAYS - 1),
        });
      const globex = (await addDomain(owner.client, group.id, "globex.io")).id;
      await runBackfill(env(), globex);

      const latest = connectedLatestDay(env());
      const rows = await storedRows(env(), acme);
      expect(new Set(rows.map((row) => row.provider))).toEqual(new Set(["sources"]));
      const days = [...new Set(rows.map((row) => row.day))].sort();
      expect(days).toHaveLength(BACKFILL_DAYS);
      expect(days.at(-1)).toBe(latest);
      for (const day of days) {
        const expected = fakeSiteDay(day);
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
            .metrics.snapshot({ companyId: owner.company.id, day: shiftDay(connectedLatestDay(env()), 3) }),
        ).rejects.toThrow();
        expect(await storedRows(env(), acme)).toEqual(before);
        expect((await owner.client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
      } finally {
        fake.failNext.length = 0;
      }
    }, 30_000);
  },
  async () => ({ ...(await google.env()) }),
);
