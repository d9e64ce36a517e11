import { expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { describeEachDb } from "../../../test/harness";
import { createDemoSource, demoInstance, instance, uploadCsv, widgetData } from "./test-helpers";

type Metric = { key: string; label: string; format: string; lowerIsBetter?: boolean };
type Row = { dimension: string | null; values: Array<number | null> };

describeEachDb("widget data: calculated metrics without chosen metrics (docs/product.md §5)", (env) => {
  it("fetches the metrics an expression names, by key or label, and shows only the calculated columns", async () => {
    const { client: owner } = await buildOwner(env());
    const sourceId = await createDemoSource(owner);
    const range = { startDate: "2025-03-01", endDate: "2025-03-07" };
    const calculatedMetrics = [
      { id: "ctr2", name: "Click rate", type: "average:percent", expression: "clicks / impressions * 100" },
      { id: "pos2", name: "Position x2", type: "average", expression: "{Avg. Position} * 2" },
    ];
    const alone = await widgetData(
      owner,
      [
        instance(sourceId, "demo.search", {
          property: "acme-software",
          dimension: "date",
          metrics: [],
          calculatedMetrics,
        }),
      ],
      range,
    );
    expect(alone.statusCode).toBe(200);
    const { current, previous } = alone.json().data;
    expect(current.metrics.map((metric: Metric) => metric.key)).toEqual(["a.ctr2", "a.pos2"]);
    expect(current.rows).toHaveLength(7);
    expect(previous.rows).toHaveLength(7);

    // The same numbers as the metrics chosen explicitly.
    const chosen = (
      await widgetData(
        owner,
        [
          instance(sourceId, "demo.search", {
            property: "acme-software",
            dimension: "date",
            metrics: ["clicks", "impressions", "position"],
          }),
        ],
        range,
      )
    ).json().data.current;
    current.rows.forEach((row: Row, index: number) => {
      const [clicks, impressions, position] = chosen.rows[index].values as number[];
      expect(row.values[0]).toBeCloseTo((clicks / impressions) * 100, 6);
      expect(row.values[1]).toBeCloseTo(position * 2, 6);
    });

    // A chosen metric stays; a metric named only by the expression is fetched and then dropped.
    const mixed = (
      await widgetData(
        owner,
        [
          demoInstance(sourceId, {
            metrics: ["sessions"],
            calculatedMetrics: [{ id: "rps", name: "RPS", type: "numeric:money", expression: "revenue / sessions" }],
          }),
        ],
        range,
      )
    ).json().data.current;
    expect(mixed.metrics.map((metric: Metric) => metric.key)).toEqual(["a.sessions", "a.rps"]);
    expect(mixed.rows.every((row: Row) => typeof row.values[1] === "number" && (row.values[1] as number) > 0)).toBe(
      true,
    );
  });

  it("resolves labels through a CSV source's column list", async () => {
    const { client: owner } = await buildOwner(env());
    const upload = await uploadCsv(
      owner,
      ["Channel,Visits,Orders", "Organic,500,20", "Paid,300,15", "Email,100,9"].join("\n"),
    );
    expect(upload.statusCode).toBe(200);
    const source = upload.json().data;
    const inputs = {
      sheet: "sheet1",
      has_header: true,
      has_footer: false,
      has_labels: true,
      uses_date_range: false,
      property: source.properties[0].value,
      dimension: "channel",
      metrics: [],
      calculatedMetrics: [
        { id: "cr", name: "Order rate", type: "average:percent", expression: "{Orders} / {Visits} * 100" },
      ],
    };
    const response = await widgetData(owner, [instance(source.id, "csv.sheet", inputs)]);
    expect(response.statusCode).toBe(200);
    const table = response.json().data.current;
    expect(table.metrics.map((metric: Metric) => metric.label)).toEqual(["Order rate"]);
    expect(table.rows.map((row: Row) => [row.dimension, row.values[0]])).toEqual([
      ["Organic", 4],
      ["Paid", 5],
      ["Email", 9],
    ]);
  });

  it("carries the connectors' lower-is-better declarations into the table", async () => {
    const { client: owner } = await buildOwner(env());
    const sourceId = await createDemoSource(owner);
    const search = (
      await widgetData(owner, [
        instance(sourceId, "demo.search", { property: "acme-software", metrics: ["clicks", "position", "ctr"] }),
      ])
    ).json().data.current;
    expect(search.metrics.map((metric: Metric) => [metric.key, metric.lowerIsBetter ?? false])).toEqual([
      ["a.clicks", false],
      ["a.position", true],
      ["a.ctr", false],
    ]);
    const ads = (
      await widgetData(owner, [
        instance(sourceId, "demo.ads", { property: "acme-software", metrics: ["cost", "cpc", "cost_per_conversion"] }),
      ])
    ).json().data.current;
    expect(ads.metrics.map((metric: Metric) => metric.lowerIsBetter ?? false)).toEqual([false, true, true]);
    const upload = await uploadCsv(owner, ["Query,Clicks,Avg. Pos", "shoes,10,3.5", "boots,4,7.25"].join("\n"));
    const source = upload.json().data;
    const csv = (
      await widgetData(owner, [
        instance(source.id, "csv.sheet", {
          sheet: "sheet1",
          has_header: true,
          has_footer: false,
          has_labels: true,
          uses_date_range: false,
          property: source.properties[0].value,
          metrics: ["clicks", "avg_pos"],
        }),
      ])
    ).json().data.current;
    expect(csv.metrics.map((metric: Metric) => [metric.label, metric.lowerIsBetter ?? false])).toEqual([
      ["Clicks", false],
      ["Avg. Pos", true],
    ]);
  });
});
