import { formatChange, formatNumber, type TInteractiveWidget } from "@app/core";
import { buildInstance, buildPassiveWidget, buildWidget } from "@app/core/widgets/test-fixtures";
import { expect, it } from "vitest";
import { buildDashboard, buildOwner, buildSource } from "../../../test/factories";
import { describeEachDb, type TestEnv } from "../../../test/harness";

// The Demo site whose Organic Search collapsed from Oct 19 to Oct 31, 2026 (DEMO_INCIDENTS).
const RANGE = { startDate: "2026-10-19", endDate: "2026-10-31", timezone: "UTC" };

function demoWidget(sourceId: string, overrides: Partial<TInteractiveWidget>, inputs: Record<string, unknown>) {
  return buildWidget({
    ...overrides,
    instances: [
      buildInstance({
        id: `i-${overrides.id}`,
        type: "demo.analytics",
        config: "custom",
        sourceId,
        inputs: { property: "harbor-outfitters", ...inputs },
      }),
    ],
  });
}

async function setUp(env: TestEnv, options: { hidden?: boolean } = {}) {
  const owner = await buildOwner(env);
  const source = await buildSource(env, { company: owner.company });
  const byChannel = demoWidget(
    source.id,
    {
      id: "channels",
      order: 0,
      hash: "channels",
      title: "Sessions by channel",
      hiddenInsights: options.hidden ?? false,
    },
    { dimension: "channel", metrics: ["sessions"] },
  );
  const bounce = demoWidget(
    source.id,
    { id: "bounce", order: 1, hash: "bounce", title: "Bounce rate" },
    { dimension: "", metrics: ["bounce_rate"] },
  );
  const row = await buildDashboard(env, {
    company: owner.company,
    user: owner.user,
    widgets: [byChannel, bounce, buildPassiveWidget({ id: "notes", order: 2 })],
  });
  return { owner, row };
}

type Table = {
  metrics: Array<{ key: string }>;
  rows: Array<{ dimension: string; values: number[] }>;
  totals: number[];
};

/** What the widget itself shows (its data route), to check every number the sentence states. */
async function shown(env: TestEnv, permalink: string, widgetId: string) {
  const response = await env.client().api("POST", `/api/dashboards/${permalink}/widgets/${widgetId}/data`, RANGE);
  expect(response.statusCode).toBe(200);
  return response.json().data as { current: Table; previous: Table };
}

const signed = (value: number) => `${value < 0 ? "\u2212" : "+"}${formatNumber(Math.abs(value))}`;

describeEachDb("automatic insights of a dashboard", (env) => {
  it("says what the scripted change did, naming the channel, in the widget's numbers, for every viewer", async () => {
    const { owner, row } = await setUp(env());
    const response = await owner.client.api("POST", `/api/dashboards/${row.permalink}/insights`, RANGE);
    expect(response.statusCode).toBe(200);
    const { data } = response.json();

    const { current, previous } = await shown(env(), row.permalink, "channels");
    const delta = current.totals[0] - previous.totals[0];
    const organic = (table: Table) => table.rows.find((r) => r.dimension === "Organic Search")?.values[0] ?? 0;
    const percent = formatChange(current.totals[0], previous.totals[0]) as number;
    const line = data.widgets.channels as string;
    // Organic Search collapsed (DEMO_INCIDENTS): the total fell and the channel explains it.
    expect(delta).toBeLessThan(0);
    const organicDelta = organic(current) - organic(previous);
    expect(
      line.startsWith(
        `Sessions down ${formatNumber(Math.abs(percent), { format: "percent" })} (${signed(delta)}) vs Oct 6 \u2013 Oct 18; ` +
          `Organic Search contributed ${signed(organicDelta)}`,
      ),
    ).toBe(true);
    // Only the metric that moved is said; a passive widget has no line at all.
    expect(Object.keys(data.widgets).sort()).toEqual(["bounce", "channels"]);
    expect(data.summary[0]).toEqual({
      widgetId: "channels",
      metricKey: "a.sessions",
      metricLabel: "Sessions",
      direction: "down",
      tone: "bad",
      sentence: line,
    });
    expect(data.summary.map((statement: { metricLabel: string }) => statement.metricLabel)).not.toContain(
      "Bounce Rate",
    );

    // A public viewer gets the same words (same access rule as the widget data); a wrong dashboard, none.
    const anonymous = await env().client().api("POST", `/api/dashboards/${row.permalink}/insights`, RANGE);
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json().data).toEqual(data);
    const missing = await env().client().api("POST", "/api/dashboards/nope/insights", RANGE);
    expect(missing.statusCode).toBe(404);
  });

  it("a widget whose owner hid its insights has no line and no place in the summary", async () => {
    const { owner, row } = await setUp(env(), { hidden: true });
    const { data } = (await owner.client.api("POST", `/api/dashboards/${row.permalink}/insights`, RANGE)).json();
    expect(data.widgets.channels).toBeNull();
    expect(data.summary.some((statement: { widgetId: string }) => statement.widgetId === "channels")).toBe(false);
  });

  it("a bad range is a 422 on its field, not a silence", async () => {
    const { owner, row } = await setUp(env());
    const bad = await owner.client.api("POST", `/api/dashboards/${row.permalink}/insights`, {
      ...RANGE,
      endDate: "2026-10-01",
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(["endDate"]);
  });

  it("validates the two settings: the widget's hiddenInsights and the dashboard's insightsSummary", async () => {
    const { owner, row } = await setUp(env());
    const widget = (JSON.parse(row.widgets) as TInteractiveWidget[])[0];
    const badWidget = await owner.client.apiMultipart("POST", `/api/dashboards/${row.id}`, {
      widgets: JSON.stringify([{ ...widget, hiddenInsights: "yes" }]),
    });
    expect(badWidget.statusCode).toBe(422);
    expect(Object.keys(badWidget.json().errors).join()).toContain("hiddenInsights");
    const badStyles = await owner.client.apiMultipart("POST", `/api/dashboards/${row.id}`, {
      styles: JSON.stringify({ insightsSummary: "on" }),
    });
    expect(badStyles.statusCode).toBe(422);
    expect(Object.keys(badStyles.json().errors).join()).toContain("insightsSummary");

    const saved = await owner.client.apiMultipart("POST", `/api/dashboards/${row.id}`, {
      widgets: JSON.stringify([{ ...widget, hiddenInsights: true }]),
      styles: JSON.stringify({ insightsSummary: true }),
    });
    expect(saved.statusCode).toBe(200);
    const shownDashboard = (await owner.client.api("GET", `/api/dashboards/${row.permalink}`)).json().data;
    expect(shownDashboard.styles.insightsSummary).toBe(true);
    expect(shownDashboard.widgets[0].hiddenInsights).toBe(true);
  });
});
