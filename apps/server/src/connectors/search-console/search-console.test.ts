import { afterAll, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { fakeGoogleForFile, fakeSearch } from "../../../test/fakes/google";
import { connectOAuth } from "../../../test/fakes/oauth-connect";
import { describeEachDb } from "../../../test/harness";
import { instance, widgetData } from "../../features/widgets/test-helpers";

const google = fakeGoogleForFile(afterAll);

const gsc = (sourceId: string, inputs: Record<string, unknown>) =>
  instance(sourceId, "searchConsole.performance", { property: "https://acme.com/", ...inputs });

describeEachDb(
  "Search Console against a local Google",
  (env) => {
    it("connects with its own scope and lists the verified sites", async () => {
      const { client } = await buildOwner(env());
      const { consent, result } = await connectOAuth(client, "searchConsole");
      expect(consent.searchParams.get("scope")).toContain("webmasters.readonly");
      expect(result).toMatchObject({ ok: true, connector: "searchConsole" });
      expect((await client.api("GET", `/api/sources/${result.sourceId}/properties`)).json().data).toEqual([
        { value: "sc-domain:acme.com", label: "acme.com (domain)" },
        { value: "https://acme.com/", label: "https://acme.com/" },
      ]);
    });

    it("every day of the range is a point (days Google leaves out are zero clicks); CTR and position are Google's own totals", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connectOAuth(client, "searchConsole");
      const range = { startDate: "2026-10-01", endDate: "2026-10-06" };
      const response = await widgetData(
        client,
        [gsc(result.sourceId, { dimension: "date", metrics: ["clicks", "impressions", "ctr", "position"] })],
        range,
      );
      expect(response.statusCode).toBe(200);
      const table = response.json().data.current;
      expect(table.metrics).toEqual([
        { key: "a.clicks", label: "Clicks", format: "number" },
        { key: "a.impressions", label: "Impressions", format: "number" },
        { key: "a.ctr", label: "CTR", format: "percent" },
        { key: "a.position", label: "Average position", format: "number", lowerIsBetter: true },
      ]);
      expect(table.rows.map((row: { dimension: string }) => row.dimension)).toEqual([
        "2026-10-01",
        "2026-10-02",
        "2026-10-03",
        "2026-10-04",
        "2026-10-05",
        "2026-10-06",
      ]);
      // The 3rd had no data at Google: zero clicks and impressions, no CTR or position (not 0, which would read as top rank).
      expect(table.rows[2].values).toEqual([0, 0, null, null]);
      const day1 = [0, 1, 2].map((query) => fakeSearch("2026-10-01", query));
      const clicks1 = day1.reduce((sum, cell) => sum + (cell?.clicks ?? 0), 0);
      expect(table.rows[0].values[0]).toBe(clicks1);
      // Totals: clicks add up; CTR is clicks over impressions of the whole range, not a sum of days.
      const clicks = table.rows.reduce((sum: number, row: { values: number[] }) => sum + row.values[0], 0);
      const impressions = table.rows.reduce((sum: number, row: { values: number[] }) => sum + row.values[1], 0);
      expect(table.totals[0]).toBe(clicks);
      expect(table.totals[2]).toBeCloseTo((clicks / impressions) * 100, 6);
      expect(table.totals[3]).toBeGreaterThan(3);
    });

    it("a site the login cannot read is the widget's error; the source stays valid", async () => {
      const { client } = await buildOwner(env());
      const { result } = await connectOAuth(client, "searchConsole");
      const refused = await widgetData(client, [
        gsc(result.sourceId, { property: "https://other.example/", metrics: ["clicks"] }),
      ]);
      expect(refused.statusCode).toBe(422);
      expect(JSON.stringify(refused.json())).toContain("does not have sufficient permission for site");
      expect((await client.api("GET", "/api/sources")).json().data[0].invalid).toBe(false);
    });
  },
  google.env,
);
