import { buildWidget } from "@app/core/widgets/test-fixtures";
import { describe, expect, it } from "vitest";
import { buildOwner, buildSource } from "../../../test/factories";
import { describeEachDb } from "../../../test/harness";
import { REALTIME_TYPE_KEY, realtimeMinute, realtimeTable } from "./realtime";

const at = (iso: string) => realtimeMinute(Date.parse(iso));
const query = (overrides: Partial<Parameters<typeof realtimeTable>[0]> = {}) => ({
  sourceId: "src-1",
  property: "acme-software",
  dimension: "minute",
  metrics: ["activeUsers", "views"],
  minute: at("2026-11-24T14:03:27Z"),
  timezone: "Europe/Berlin",
  ...overrides,
});

describe("Demo realtime data (docs/product.md §2 realtime view)", () => {
  it("the last 30 minutes, labelled in the dashboard's zone, ending at the current minute", () => {
    const table = realtimeTable(query());
    expect(table.rows).toHaveLength(30);
    expect(table.rows[0].dimension).toBe("14:34");
    expect(table.rows.at(-1)?.dimension).toBe("15:03");
    expect(table.metrics.map((m) => m.label)).toEqual(["Active users", "Views"]);
    for (const row of table.rows) {
      expect(row.values[0]).toBeGreaterThan(0);
      expect(row.values[1]).toBeGreaterThanOrEqual(row.values[0] as number);
    }
    // Views add up; active users over the window are fewer than the minutes' sum (people stay a while).
    expect(table.totals[1]).toBe(table.rows.reduce((sum, row) => sum + (row.values[1] as number), 0));
    expect(table.totals[0]).toBeLessThan(table.rows.reduce((sum, row) => sum + (row.values[0] as number), 0));
  });

  it("the same within a minute, moving from one minute to the next", () => {
    expect(realtimeTable(query({ minute: at("2026-11-24T14:03:01Z") }))).toEqual(
      realtimeTable(query({ minute: at("2026-11-24T14:03:59Z") })),
    );
    const now = realtimeTable(query());
    const next = realtimeTable(query({ minute: at("2026-11-24T14:04:10Z") }));
    // The window slid by one minute: the old second row is the new first one.
    expect(next.rows[0]).toEqual({ ...now.rows[1] });
    expect(next.totals).not.toEqual(now.totals);
  });

  it("by country: the window's totals split over countries, largest first", () => {
    const table = realtimeTable(query({ dimension: "country" }));
    expect(table.dimension?.label).toBe("Country");
    expect(table.rows.reduce((sum, row) => sum + (row.values[1] as number), 0)).toBe(table.totals[1]);
    const users = table.rows.map((row) => row.values[0] as number);
    expect([...users].sort((a, b) => b - a)).toEqual(users);
  });
});

describeEachDb("realtime widgets through the data path", (env) => {
  it("the Demo source offers a realtime type, and its widget answers the live window", async () => {
    const owner = await buildOwner(env());
    const source = await buildSource(env(), { company: owner.company });
    const types = (await owner.client.api("GET", "/api/configs/widgets/demo")).json().data as {
      type: string;
      realtime?: boolean;
    }[];
    expect(types.find((type) => type.type === REALTIME_TYPE_KEY)?.realtime).toBe(true);
    const widget = buildWidget({
      realTime: true,
      format: "summary",
      instances: [
        {
          id: "i1",
          type: REALTIME_TYPE_KEY,
          prefix: "a",
          sourceId: source.id,
          config: REALTIME_TYPE_KEY,
          currency: null,
          accounts: [],
          inputs: { property: "acme-software", metrics: ["activeUsers", "views"] },
          metricsOptions: {},
        },
      ],
    });
    const body = { instances: widget.instances, startDate: "2026-11-01", endDate: "2026-11-24", timezone: "UTC" };
    const response = await owner.client.api("POST", "/api/widgets/data", body);
    expect(response.statusCode).toBe(200);
    const { current } = response.json().data;
    expect(current.metrics.map((m: { key: string }) => m.key)).toEqual(["a.activeUsers", "a.views"]);
    expect(current.totals[0]).toBeGreaterThan(0);
    // What a live tool shows now: the pure function's numbers for this minute.
    const expected = realtimeTable({
      sourceId: source.id,
      property: "acme-software",
      dimension: null,
      metrics: ["activeUsers", "views"],
      minute: realtimeMinute(Date.now()),
      timezone: "UTC",
    });
    // (A minute boundary between the request and this line changes both; one retry covers it.)
    const again = (await owner.client.api("POST", "/api/widgets/data", body)).json().data.current;
    expect([current.totals, again.totals]).toContainEqual(expected.totals);
  });
});
