import { expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { describeEachDb, type TestClient } from "../../../test/harness";
import { instance, uploadCsv, widgetData } from "./test-helpers";

const DAILY = [
  "Date,Sessions,Revenue,Bounce rate,Notes",
  '2025-03-01,100,"$1,000.50",40%,launch',
  "2025-03-02,120,$900.00,50%,",
  "2025-03-03,80,$700.25,45%,",
  'Total,300,"$2,600.75",45%,',
].join("\r\n");

const CHANNELS = ["Channel,Visits,Orders", "Organic,500,20", "Paid,300,15", "Email,100,9", "Total,900,44"].join("\n");

const FLAGS = { sheet: "sheet1", has_header: true, has_footer: true, has_labels: false, uses_date_range: false };

async function csvSource(client: TestClient, text: string) {
  const response = await uploadCsv(client, text);
  expect(response.statusCode).toBe(200);
  const source = response.json().data;
  return { id: source.id as string, fileId: source.properties[0].value as string };
}

describeEachDb("widget data: CSV connector", (env) => {
  it("reads a dated file: header, footer, date-range filtering of range and compare range", async () => {
    const { client: owner } = await buildOwner(env());
    const { id, fileId } = await csvSource(owner, DAILY);
    const inputs = {
      ...FLAGS,
      property: fileId,
      uses_date_range: true,
      dimension: "date",
      metrics: ["sessions", "revenue", "bounce_rate"],
    };
    const response = await widgetData(owner, [instance(id, "csv.sheet", inputs)], {
      startDate: "2025-03-02",
      endDate: "2025-03-03",
      compareStartDate: "2025-03-01",
      compareEndDate: "2025-03-01",
    });
    expect(response.statusCode).toBe(200);
    const { current, previous } = response.json().data;
    expect(current.dimension).toEqual({ key: "date", label: "Date", kind: "date" });
    expect(current.metrics).toEqual([
      { key: "a.sessions", label: "Sessions", format: "number", currency: null },
      { key: "a.revenue", label: "Revenue", format: "money", currency: "USD" },
      { key: "a.bounce_rate", label: "Bounce rate", format: "percent", currency: null, lowerIsBetter: true },
    ]);
    expect(current.rows).toEqual([
      { dimension: "2025-03-02", values: [120, 900, 50] },
      { dimension: "2025-03-03", values: [80, 700.25, 45] },
    ]);
    // The footer covers the whole file, so filtered rows are totalled from themselves; percentages are averaged.
    expect(current.totals).toEqual([200, 1600.25, 47.5]);
    expect(previous.rows).toEqual([{ dimension: "2025-03-01", values: [100, 1000.5, 40] }]);
    expect(previous.totals).toEqual([100, 1000.5, 40]);
  });

  it("reads labelled rows, and uses the footer as totals", async () => {
    const { client: owner } = await buildOwner(env());
    const { id, fileId } = await csvSource(owner, CHANNELS);
    const base = { ...FLAGS, property: fileId, has_labels: true, metrics: ["visits", "orders"] };
    const byChannel = (await widgetData(owner, [instance(id, "csv.sheet", { ...base, dimension: "channel" })])).json()
      .data.current;
    expect(byChannel.dimension).toEqual({ key: "channel", label: "Channel", kind: "string" });
    expect(byChannel.rows.map((row: { dimension: string }) => row.dimension)).toEqual(["Organic", "Paid", "Email"]);
    expect(byChannel.totals).toEqual([900, 44]);
    const summary = (await widgetData(owner, [instance(id, "csv.sheet", base)])).json().data.current;
    expect(summary).toMatchObject({ dimension: null, rows: [], totals: [900, 44] });
    // Without has_footer the totals row is just another labelled row.
    const noFooter = (
      await widgetData(owner, [instance(id, "csv.sheet", { ...base, has_footer: false, dimension: "channel" })])
    ).json().data.current;
    expect(noFooter.rows.at(-1)).toEqual({ dimension: "Total", values: [900, 44] });
    expect(noFooter.totals).toEqual([1800, 88]);
  });

  it("sends no comparison for a file without dates, whose numbers do not change with the range", async () => {
    const { client: owner } = await buildOwner(env());
    const { id, fileId } = await csvSource(owner, CHANNELS);
    const inputs = { ...FLAGS, property: fileId, has_labels: true, dimension: "channel", metrics: ["visits"] };
    const response = await widgetData(owner, [instance(id, "csv.sheet", inputs)], {
      startDate: "2025-03-01",
      endDate: "2025-03-31",
      comparison: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.current.totals).toEqual([900]);
    expect(response.json().data.previous).toBeNull();
  });

  it("reads files without a header and common date formats", async () => {
    const { client: owner } = await buildOwner(env());
    const { id, fileId } = await csvSource(owner, '03/01/2025,5\n"Mar 02, 2025",7\n20250303,9\n');
    const inputs = {
      ...FLAGS,
      property: fileId,
      has_header: false,
      has_footer: false,
      uses_date_range: true,
      dimension: "column_1",
      metrics: ["column_2"],
    };
    const table = (
      await widgetData(owner, [instance(id, "csv.sheet", inputs)], {
        startDate: "2025-03-01",
        endDate: "2025-03-03",
        comparison: false,
      })
    ).json().data.current;
    expect(table.metrics[0]).toMatchObject({ key: "a.column_2", label: "Column 2" });
    expect(table.rows).toEqual([
      { dimension: "2025-03-01", values: [5] },
      { dimension: "2025-03-02", values: [7] },
      { dimension: "2025-03-03", values: [9] },
    ]);
  });

  it("answers 422 naming the line and the input when the options do not fit the file", async () => {
    const { client: owner } = await buildOwner(env());
    const { id, fileId } = await csvSource(owner, CHANNELS);
    const base = { ...FLAGS, property: fileId, has_labels: true, metrics: ["visits"] };
    const notDates = await widgetData(owner, [instance(id, "csv.sheet", { ...base, uses_date_range: true })]);
    expect(notDates.statusCode).toBe(422);
    expect(notDates.json().errors).toEqual({
      "instances.0.inputs.uses_date_range": ["Line 2: 'Organic' is not a date."],
    });
    const unknown = await widgetData(owner, [instance(id, "csv.sheet", { ...base, metrics: ["channel", "profit"] })]);
    expect(unknown.json().errors).toEqual({ "instances.0.inputs.metrics": ["Unknown column: channel, profit."] });
    const implicit = await widgetData(owner, [instance(id, "csv.sheet", { ...base, has_footer: "yes" })]);
    expect(implicit.json().errors).toEqual({ "instances.0.inputs.has_footer": ["The has footer field is required."] });
    const otherFile = await widgetData(owner, [instance(id, "csv.sheet", { ...base, property: "not-a-file" })]);
    expect(otherFile.json().errors).toEqual({ "instances.0.inputs.property": ["The selected file is invalid."] });
  });

  it("a source whose file is gone answers 502 'Data Error' and is marked invalid", async () => {
    const { client: owner, company } = await buildOwner(env());
    const { id, fileId } = await csvSource(owner, CHANNELS);
    await env().ctx.db.deleteFrom("files").where("company_id", "=", company.id).execute();
    const inputs = { ...FLAGS, property: fileId, has_labels: true, metrics: ["visits"] };
    const failed = await widgetData(owner, [instance(id, "csv.sheet", inputs)]);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({ code: "source_error", message: "Data Error" });
    expect((await owner.api("GET", "/api/sources")).json().data[0].invalid).toBe(true);
    // With a healthy instance beside it, the widget still answers, listing the failed instance.
    const demo = (await owner.api("POST", "/api/sources", { name: "demo" })).json().data.id;
    const failedInstance = instance(id, "csv.sheet", inputs, { id: "broken" });
    const partial = await widgetData(owner, [
      instance(demo, "demo.analytics", { property: "acme-software", metrics: ["sessions"] }),
      { ...failedInstance, prefix: "b" },
    ]);
    expect(partial.statusCode).toBe(200);
    expect(partial.json().data.errors).toEqual([{ instanceId: "broken", message: "Data Error" }]);
    expect(partial.json().data.current.metrics.map((m: { key: string }) => m.key)).toEqual(["a.sessions"]);
  });
});
