import { expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { describeEachDb } from "../../../test/harness";
import { createDemoSource, demoInstance, instance, uploadCsv, widgetData } from "./test-helpers";

type Row = { dimension: string | null; values: Array<number | null> };

describeEachDb("widget data: Demo connector", (env) => {
  it("answers the same numbers for the same query, and a sub-range's days equal the big range's", async () => {
    const { client: owner } = await buildOwner(env());
    const sourceId = await createDemoSource(owner);
    const metrics = ["sessions", "users", "bounce_rate", "avg_session_duration", "revenue"];
    const whole = { startDate: "2025-01-01", endDate: "2025-03-31", comparison: false };
    const first = await widgetData(owner, [demoInstance(sourceId, { metrics })], whole);
    expect(first.statusCode).toBe(200);
    const again = await widgetData(owner, [demoInstance(sourceId, { metrics })], whole);
    expect(again.json()).toEqual(first.json());

    const table = first.json().data.current;
    expect(table.dimension).toEqual({ key: "date", label: "Date", kind: "date" });
    expect(table.metrics.map((m: { key: string }) => m.key)).toEqual(metrics.map((m) => `a.${m}`));
    expect(table.metrics.find((m: { key: string }) => m.key === "a.revenue")).toMatchObject({
      format: "money",
      currency: "USD",
    });
    expect(table.rows).toHaveLength(90);
    expect(first.json().data.previous).toBeNull();

    const sub = await widgetData(owner, [demoInstance(sourceId, { metrics })], {
      startDate: "2025-02-10",
      endDate: "2025-02-20",
      comparison: false,
    });
    const subRows: Row[] = sub.json().data.current.rows;
    expect(subRows).toEqual(
      table.rows.filter((row: Row) => row.dimension && row.dimension >= "2025-02-10" && row.dimension <= "2025-02-20"),
    );
  });

  it("shows weekly seasonality, sums flows and weights ratios in totals", async () => {
    const { client: owner } = await buildOwner(env());
    const sourceId = await createDemoSource(owner);
    const range = { startDate: "2025-03-03", endDate: "2025-03-30", comparison: false }; // four whole weeks from a Monday
    const byDay = (
      await widgetData(owner, [demoInstance(sourceId, { metrics: ["sessions", "bounce_rate"] })], range)
    ).json().data.current;
    const weekday = (row: Row) => new Date(`${row.dimension}T00:00:00Z`).getUTCDay();
    const mean = (rows: Row[]) => rows.reduce((sum, row) => sum + (row.values[0] ?? 0), 0) / rows.length;
    const weekends = byDay.rows.filter((row: Row) => [0, 6].includes(weekday(row)));
    const weekdays = byDay.rows.filter((row: Row) => ![0, 6].includes(weekday(row)));
    expect(mean(weekends)).toBeLessThan(mean(weekdays) * 0.75);
    const sessions = byDay.rows.reduce((sum: number, row: Row) => sum + (row.values[0] ?? 0), 0);
    expect(byDay.totals[0]).toBe(sessions);
    // Bounce rate total is bounces / sessions over the range, not the sum or plain mean of daily rates.
    expect(byDay.totals[1]).toBeGreaterThan(30);
    expect(byDay.totals[1]).toBeLessThan(60);

    const byCountry = (
      await widgetData(owner, [demoInstance(sourceId, { dimension: "country", metrics: ["sessions"] })], range)
    ).json().data.current;
    expect(byCountry.rows.map((row: Row) => row.dimension)).toContain("United States");
    expect(byCountry.rows.reduce((sum: number, row: Row) => sum + (row.values[0] ?? 0), 0)).toBe(sessions);
    expect(byCountry.totals[0]).toBe(sessions);
  });

  it("answers the default comparison range, or a custom one", async () => {
    const { client: owner } = await buildOwner(env());
    const sourceId = await createDemoSource(owner);
    const inst = demoInstance(sourceId, { dimension: "", metrics: ["sessions"] });
    const march = (await widgetData(owner, [inst], { startDate: "2025-03-01", endDate: "2025-03-31" })).json().data;
    const rangeOf = async (startDate: string, endDate: string) =>
      (await widgetData(owner, [inst], { startDate, endDate, comparison: false })).json().data.current.totals[0];
    expect(march.current.dimension).toBeNull();
    expect(march.current.rows).toEqual([]);
    expect(march.previous.totals[0]).toBe(await rangeOf("2025-01-29", "2025-02-28"));
    const custom = (
      await widgetData(owner, [inst], {
        startDate: "2025-03-01",
        endDate: "2025-03-31",
        compareStartDate: "2024-03-01",
        compareEndDate: "2024-03-31",
      })
    ).json().data;
    expect(custom.previous.totals[0]).toBe(await rangeOf("2024-03-01", "2024-03-31"));
  });

  it("adds calculated metrics evaluated per row, with time units and types", async () => {
    const { client: owner } = await buildOwner(env());
    const sourceId = await createDemoSource(owner);
    const calculatedMetrics = [
      { id: "rps", name: "Revenue per session", type: "numeric:money", expression: "revenue / sessions" },
      { id: "minutes", name: "Minutes", type: "average:time:minutes", expression: "avg_session_duration / 60" },
      { id: "double", name: "Double", type: "numeric", expression: "{Revenue per session} * 2" },
    ];
    const response = await widgetData(
      owner,
      [demoInstance(sourceId, { metrics: ["sessions", "revenue", "avg_session_duration"], calculatedMetrics })],
      {
        startDate: "2025-03-01",
        endDate: "2025-03-07",
        comparison: false,
      },
    );
    expect(response.statusCode).toBe(200);
    const table = response.json().data.current;
    expect(table.metrics.slice(3)).toEqual([
      { key: "a.rps", label: "Revenue per session", format: "money", currency: "USD" },
      { key: "a.minutes", label: "Minutes", format: "time" },
      { key: "a.double", label: "Double", format: "number" },
    ]);
    for (const row of table.rows as Row[]) {
      const [sessions, revenue, duration, rps, minutes, double] = row.values as number[];
      expect(rps).toBeCloseTo(revenue / sessions, 6);
      // Minutes are converted back to the seconds every time column holds.
      expect(minutes).toBeCloseTo(duration, 6);
      expect(double).toBeCloseTo(rps * 2, 6);
    }
    const bad = await widgetData(owner, [
      demoInstance(sourceId, {
        calculatedMetrics: [{ id: "x", name: "X", type: "numeric", expression: "sessions +" }],
      }),
    ]);
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(["instances.0.inputs.calculatedMetrics.0.expression"]);
    // Calculated metrics alone satisfy 'metrics' (docs/product.md §5).
    const only = await widgetData(owner, [
      demoInstance(sourceId, {
        metrics: [],
        calculatedMetrics: [{ id: "k", name: "K", type: "numeric", expression: "2 * 3" }],
      }),
    ]);
    expect(only.statusCode).toBe(200);
  });

  it("merges instances: same dimension joins rows; different types give a summary of totals", async () => {
    const { client: owner } = await buildOwner(env());
    const sourceId = await createDemoSource(owner);
    const range = { startDate: "2025-03-01", endDate: "2025-03-10", comparison: false };
    const single = (id: string, type: string, inputs: Record<string, unknown>) =>
      widgetData(owner, [instance(sourceId, type, { property: id, ...inputs })], range).then(
        (r) => r.json().data.current,
      );
    const acme = await single("acme-software", "demo.analytics", { dimension: "date", metrics: ["sessions"] });
    const shop = await single("northwind-shop", "demo.analytics", {
      dimension: "date",
      metrics: ["sessions", "bounce_rate"],
    });
    const merged = await widgetData(
      owner,
      [
        demoInstance(sourceId, { metrics: ["sessions"] }),
        demoInstance(sourceId, { property: "northwind-shop", metrics: ["sessions", "bounce_rate"] }, { prefix: "a" }),
      ],
      range,
    );
    expect(merged.statusCode).toBe(200);
    const table = merged.json().data.current;
    // The repeated prefix is made unique, as docs/product.md §4 merging does.
    expect(table.metrics.map((m: { key: string; label: string }) => `${m.key}=${m.label}`)).toEqual([
      "a.sessions=Sessions (a)",
      "b.sessions=Sessions (b)",
      "b.bounce_rate=Bounce Rate (b)",
    ]);
    expect(table.rows).toHaveLength(10);
    table.rows.forEach((row: Row, i: number) => {
      expect(row.values).toEqual([...acme.rows[i].values, ...shop.rows[i].values]);
    });
    expect(table.totals).toEqual([...acme.totals, ...shop.totals]);

    const mixed = await widgetData(
      owner,
      [
        demoInstance(sourceId, { dimension: "", metrics: ["sessions"] }, { config: "custom" }),
        instance(
          sourceId,
          "demo.search",
          { property: "acme-software", metrics: ["clicks", "ctr"] },
          { prefix: "b", config: "custom" },
        ),
      ],
      range,
    );
    const summary = mixed.json().data.current;
    expect(summary.dimension).toBeNull();
    expect(summary.rows).toEqual([]);
    expect(summary.metrics.map((m: { key: string }) => m.key)).toEqual(["a.sessions", "b.clicks", "b.ctr"]);
    expect(summary.totals[0]).toBe(acme.totals[0]);
  });

  it("validates per field with 422", async () => {
    const { client: owner } = await buildOwner(env());
    const sourceId = await createDemoSource(owner);
    const csvId = (await uploadCsv(owner, "a,b\n1,2\n")).json().data.id;
    const shape = await owner.api("POST", "/api/widgets/data", {
      instances: [],
      startDate: "2025-13-01",
      endDate: "x",
    });
    expect(shape.statusCode).toBe(422);
    expect(Object.keys(shape.json().errors).sort()).toEqual(["endDate", "instances", "startDate"]);
    const backwards = await widgetData(owner, [demoInstance(sourceId)], {
      startDate: "2025-03-10",
      endDate: "2025-03-01",
    });
    expect(backwards.json().errors.endDate).toBeDefined();
    const long = await widgetData(owner, [demoInstance(sourceId)], { startDate: "2015-01-01", endDate: "2025-01-01" });
    expect(long.json().errors.endDate[0]).toContain("may not be longer");
    const inputs = await widgetData(owner, [
      demoInstance(sourceId, { property: "", metrics: ["sessions", "likes"], dimension: "planet" }),
      instance(sourceId, "demo.nothing", {}),
      demoInstance("", {}, { prefix: "c" }),
    ]);
    expect(inputs.statusCode).toBe(422);
    expect(inputs.json().errors).toEqual({
      "instances.0.inputs.property": ["The property field is required."],
      "instances.0.inputs.metrics": ["Unknown value: likes."],
      "instances.0.inputs.dimension": ["Unknown value: planet."],
      "instances.1.type": ["The selected widget type is invalid."],
      "instances.2.sourceId": ["The source field is required."],
    });
    const site = await widgetData(owner, [demoInstance(sourceId, { property: "someone-else.example" })]);
    expect(site.json().errors).toEqual({ "instances.0.inputs.property": ["The selected site is invalid."] });
    const wrongSource = await widgetData(owner, [demoInstance(csvId)]);
    expect(wrongSource.json().errors).toEqual({
      "instances.0.sourceId": ["The source does not offer this widget type."],
    });
  });

  it("another company's sources are not found and leak no data", async () => {
    const { client: alpha } = await buildOwner(env());
    const alphaSource = await createDemoSource(alpha);
    const alphaCsv = (await uploadCsv(alpha, "Secret,Value\nx,42\n")).json().data;
    const { client: beta } = await buildOwner(env());
    const data = await widgetData(beta, [demoInstance(alphaSource)]);
    expect(data.statusCode).toBe(404);
    expect(data.body).not.toContain("values");
    const ownSource = await createDemoSource(beta);
    expect(
      (await widgetData(beta, [demoInstance(ownSource), demoInstance(alphaSource, {}, { prefix: "b" })])).statusCode,
    ).toBe(404);
    expect((await beta.api("GET", "/api/sources")).json().data.map((s: { id: string }) => s.id)).toEqual([ownSource]);
    for (const id of [alphaSource, alphaCsv.id]) {
      expect((await beta.api("GET", `/api/sources/${id}/properties`)).statusCode).toBe(404);
      expect((await beta.api("GET", `/api/sources/${id}/metrics?type=demo.analytics`)).statusCode).toBe(404);
      expect((await beta.api("PUT", `/api/sources/${id}`, {})).statusCode).toBe(404);
      expect((await beta.api("DELETE", `/api/sources/${id}`)).statusCode).toBe(404);
    }
    const columns = await beta.api(
      "GET",
      `/api/sources/${alphaCsv.id}/columns?property=${alphaCsv.properties[0].value}&has_header=1`,
    );
    expect(columns.statusCode).toBe(404);
    expect(columns.body).not.toContain("Secret");
    // Alpha's sources are untouched.
    expect((await alpha.api("GET", "/api/sources")).json().data).toHaveLength(2);
  });
});
