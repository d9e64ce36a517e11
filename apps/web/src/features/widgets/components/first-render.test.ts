import type { TInteractiveWidget, TTable } from "@app/core";
import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { WidgetDataResult } from "../api";
import { type WidgetRange, widgetDataQuery } from "../queries";
import { firstWidgetState } from "./InteractiveWidgetBody";
import { summaryGridStyle, summaryPerRow } from "./SummaryWidget";
import { WidgetCard } from "./WidgetCard";

/**
 * A widget card's first render, as the server renders the public view and the browser hydrates it:
 * nothing measured yet (width 0) and, on a server-rendered page, the widget's answer already in the cache.
 */

const range: WidgetRange = {
  startDate: "2026-11-01",
  endDate: "2026-11-26",
  compareStartDate: null,
  compareEndDate: null,
  timezone: "UTC",
};

function widgetOf(
  format: TInteractiveWidget["format"],
  overrides: Partial<TInteractiveWidget> = {},
): TInteractiveWidget {
  return {
    id: `w-${format}`,
    nature: "interactive",
    realTime: false,
    order: 0,
    hash: "h",
    width: 4,
    height: 1,
    title: `A ${format}`,
    description: null,
    format,
    percent: false,
    hiddenChange: false,
    hiddenHighlight: false,
    rowsLimit: 10,
    orderBy: { column: "dimension", dir: "asc" },
    formatOptions: {},
    instances: [
      {
        id: "i1",
        type: "demo.analytics",
        prefix: "a",
        sourceId: "s1",
        config: "demo.analytics",
        currency: null,
        accounts: [],
        inputs: { metrics: ["sessions"] },
        metricsOptions: {},
      },
    ],
    ...overrides,
  };
}

/** The six figures of the website-overview template's "Key figures". */
const figures: TTable = {
  dimension: null,
  metrics: [
    { key: "a.sessions", label: "Sessions", format: "number" },
    { key: "a.users", label: "Users", format: "number" },
    { key: "a.bounce_rate", label: "Bounce Rate", format: "percent", lowerIsBetter: true },
    { key: "a.avg_session_duration", label: "Avg. Session Duration", format: "time" },
    { key: "a.conversions", label: "Conversions", format: "number" },
    { key: "a.revenue", label: "Revenue", format: "money", currency: "USD" },
  ],
  rows: [],
  totals: [12_345, 8_901, 45.2, 154, 321, 12_345.67],
};

const pages: TTable = {
  dimension: { key: "page", label: "Page", kind: "string" },
  metrics: [{ key: "a.pageviews", label: "Pageviews", format: "number" }],
  rows: [
    { dimension: "/", values: [900] },
    { dimension: "/pricing", values: [300] },
  ],
  totals: [1_200],
};

const nothing: TTable = { ...pages, rows: [], totals: [null] };
const noTotals: TTable = { ...figures, totals: figures.totals.map(() => null) };
const zeros: TTable = { ...figures, metrics: figures.metrics.slice(0, 1), totals: [0] };

function answer(current: TTable): WidgetDataResult {
  return { current, previous: null, errors: [] };
}

/** A query client holding `current` as the widget's answer. */
function clientWith(widget: TInteractiveWidget, current: TTable | null): QueryClient {
  const client = new QueryClient();
  if (current) client.setQueryData(widgetDataQuery(widget, range).queryKey, answer(current));
  return client;
}

describe("firstWidgetState (the card's first attributes, before the body reports)", () => {
  const summary = widgetOf("summary");
  const table = widgetOf("table");
  const line = widgetOf("chart:line");
  const gauge = widgetOf("chart:gauge");
  it.each([
    ["a table with its answer", table, pages, false, true, "ready"],
    ["a summary with its answer", summary, figures, false, true, "ready"],
    ["a table whose answer has no rows", table, nothing, false, true, "empty"],
    ["a gauge whose totals are all N/A", gauge, noTotals, false, true, "empty"],
    [
      "a summary of zeros as shares (no total to share)",
      widgetOf("summary", { percent: true }),
      zeros,
      false,
      true,
      "empty",
    ],
    // Drawn only after its first render (EChart), so not ready before the body says so.
    ["a chart with its answer", line, pages, false, true, "loading"],
    ["a table without its answer", table, null, false, true, "loading"],
    // Fetched again when the body mounts: the body says loading until the new answer is drawn.
    ["a table whose answer is stale", table, pages, true, true, "loading"],
    ["a viewer who may not load data", table, pages, false, false, "unavailable"],
    ["a viewer who may not load data, no answer", table, null, false, false, "unavailable"],
  ] as const)("%s → %s", (_, widget, current, stale, enabled, state) => {
    const client = clientWith(widget, current);
    if (stale)
      void client.invalidateQueries({ queryKey: widgetDataQuery(widget, range).queryKey, refetchType: "none" });
    expect(firstWidgetState(client, widget, range, null, enabled)).toBe(state);
  });

  it("an answer being fetched is not settled", () => {
    const client = clientWith(table, pages);
    const query = client.getQueryCache().find({ queryKey: widgetDataQuery(table, range).queryKey, exact: true });
    query?.setState({ fetchStatus: "fetching" });
    expect(firstWidgetState(client, table, range, null, true)).toBe("loading");
  });

  it("another range's answer is not this one's", () => {
    const client = clientWith(table, pages);
    expect(firstWidgetState(client, table, { ...range, startDate: "2026-10-01" }, null, true)).toBe("loading");
  });
});

describe("summaryGridStyle", () => {
  it.each([
    // Not measured (server, first render): the stylesheet's columns and number size.
    [6, 0, 10, undefined],
    // A 390 px phone's card body, and a full-width card at 1280 px.
    [6, 340, 10, { gridTemplateColumns: "repeat(2, minmax(0, 1fr))", "--kpi-fit": "19px" }],
    [6, 1222, 10, { gridTemplateColumns: "repeat(6, minmax(0, 1fr))", "--kpi-fit": "25px" }],
    [2, 1222, 6, { gridTemplateColumns: "repeat(2, minmax(0, 1fr))", "--kpi-fit": "34px" }],
  ] as const)("%s figures in a body %s px wide → %o", (count, width, longest, style) => {
    expect(summaryGridStyle(count, width, longest)).toEqual(style);
  });

  it.each([
    [6, 0, 1],
    [6, 263, 1],
    [6, 264, 2],
    [6, 340, 2],
    [6, 1222, 6],
    [3, 1222, 3],
  ])("summaryPerRow(%s, %s) = %s", (count, width, perRow) => {
    expect(summaryPerRow(count, width)).toBe(perRow);
  });
});

function serverHtml(widget: TInteractiveWidget, client: QueryClient, dataEnabled = true): string {
  return renderToString(
    createElement(
      QueryClientProvider,
      { client },
      createElement(MantineProvider, null, createElement(WidgetCard, { widget, range, dataEnabled, editMode: false })),
    ),
  );
}

/** The opening tag of the first element with `className`. */
function tagOf(html: string, className: string): string {
  const match = html.match(new RegExp(`<[a-z0-9]+[^>]*class="[^"]*\\b${className}\\b[^"]*"[^>]*>`));
  if (!match) throw new Error(`no .${className} in ${html.slice(0, 400)}`);
  return match[0];
}

describe("a card rendered by react-dom/server (width 0, the answer in the cache)", () => {
  it("lays the summary out in CSS, whole labels, and is ready at once", () => {
    const widget = widgetOf("summary");
    const html = serverHtml(widget, clientWith(widget, figures));
    const card = tagOf(html, "dash-card");
    expect(card).toContain('data-state="ready"');
    expect(card).toContain('data-ready="true"');
    expect(card).toContain('aria-busy="false"');
    const grid = tagOf(html, "dash-summary");
    expect(grid).toContain('data-count="6"');
    // No inline columns (not one per row) and no fitted number size: the stylesheet's apply.
    expect(grid).not.toContain("style=");
    expect(html).not.toContain("grid-template-columns");
    expect(html).not.toContain("--kpi-fit");
    expect(html.match(/class="[^"]*dash-kpi-label/g)).toHaveLength(6);
    expect(html).toContain(">Avg. Session Duration</p>");
  });

  it("draws the table uncompacted (the stylesheet's container query decides) and is ready at once", () => {
    const widget = widgetOf("table");
    const html = serverHtml(widget, clientWith(widget, pages));
    expect(tagOf(html, "dash-card")).toContain('data-ready="true"');
    expect(tagOf(html, "dash-table")).not.toContain("data-compact");
    expect(html).toContain("/pricing");
  });

  it("says empty for an answer with nothing to draw", () => {
    const widget = widgetOf("table");
    const card = tagOf(serverHtml(widget, clientWith(widget, nothing)), "dash-card");
    expect(card).toContain('data-state="empty"');
    expect(card).toContain('data-ready="true"');
  });

  it.each([
    ["no answer yet (a placeholder shows)", widgetOf("summary"), null],
    ["a chart (ready once drawn)", widgetOf("chart:line"), pages],
  ] as const)("stays loading with %s", (_, widget, current) => {
    const card = tagOf(serverHtml(widget, clientWith(widget, current)), "dash-card");
    expect(card).toContain('data-state="loading"');
    expect(card).toContain('data-ready="false"');
    expect(card).toContain('aria-busy="true"');
  });

  it("the placeholder of a summary not measured is laid out in CSS too", () => {
    const widget = widgetOf("summary");
    const html = serverHtml(widget, clientWith(widget, null));
    expect(tagOf(html, "dash-summary")).not.toContain("style=");
  });
});
