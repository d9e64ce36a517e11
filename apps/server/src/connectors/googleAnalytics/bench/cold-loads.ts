import fs from "node:fs";
import type { TInteractiveWidget, TWidget } from "@app/core";
import { defaultCompareRange, shiftDay, todayInTimezone } from "@app/core";
import { buildInstance, buildWidget } from "@app/core/widgets/test-fixtures";
import { BenchClient, type BenchServer, type ConnectorBenchmark, startServer } from "../../../../../../bench/lib";
import { startFakes } from "../../../../test/fakes/app";
import { connectToFake } from "../../../../test/fakes/connect";
import { TestClient } from "../../../../test/harness";
import { googleFake } from "../../google/fake";
import { googleAnalyticsConnector } from "..";

/** The GA4 property every widget reads (account 1001 of the fake), and the fake's answer time per report. */
const ACCOUNT = "1001";
const PROPERTY = "2001";
const REPORT_LATENCY_MS = 150;
/** The connector's per-property limit (this folder's index.ts: `concurrency: 10`, limitKey per property). */
const PROPERTY_LIMIT = 10;

const DIMENSIONS: Array<{ dimension: string | null; format: string }> = [
  { dimension: "date", format: "chart:line" },
  { dimension: "sessionDefaultChannelGroup", format: "table" },
  { dimension: "country", format: "chart:bar" },
  { dimension: null, format: "summary" },
];
const METRIC_SETS = [
  ["sessions"],
  ["totalUsers"],
  ["sessions", "totalUsers"],
  ["bounceRate", "averageSessionDuration"],
  ["totalRevenue"],
  ["sessions", "totalRevenue", "bounceRate"],
];

/** 24 GA4 widgets on one property, each a distinct query (4 dimensions × 6 metric sets). */
function ga4Widgets(sourceId: string): TWidget[] {
  return DIMENSIONS.flatMap(({ dimension, format }, d) =>
    METRIC_SETS.map((metrics, m) => {
      const i = d * METRIC_SETS.length + m;
      return buildWidget({
        id: `g${i}`,
        order: i,
        hash: `gh${i}`,
        width: format === "summary" ? 1 : 2,
        title: `GA4 ${metrics.join(", ")} by ${dimension ?? "nothing"}`,
        format: format as TInteractiveWidget["format"],
        instances: [
          buildInstance({
            id: `gi${i}`,
            type: "googleAnalytics.ga4",
            sourceId,
            config: "default",
            inputs: { property: ACCOUNT, profile: PROPERTY, metrics, ...(dimension ? { dimension } : {}) },
          }),
        ],
      });
    }),
  );
}

/**
 * Connects the bench's user to the Google fake as the tests do (test/fakes/connect.ts): the consent
 * popup's hop, through the in-process server, as the signed-in user `client` is.
 */
async function connectGoogleAnalytics(server: BenchServer, client: BenchClient, fakesUrl: string): Promise<string> {
  const signedIn = new TestClient(server.app);
  const [name, ...value] = client.cookie.split("=");
  signedIn.setCookie(name, value.join("="));
  return connectToFake(signedIn, googleAnalyticsConnector, fakesUrl);
}

/** A dashboard holding the widgets on a settled custom range; answers its permalink. */
async function saveDashboard(client: BenchClient, widgets: TWidget[], start: string, end: string) {
  const created = await client.call<{ data: { permalink: string } }>("POST", "/api/dashboards", {
    name: "GA4 bench dashboard",
  });
  const { data } = await client.call<{ data: { id: string } }>("GET", `/api/dashboards/${created.data.permalink}`);
  const form = new FormData();
  form.set("widgets", JSON.stringify(widgets));
  form.set("range_type", "custom");
  form.set("start", start);
  form.set("end", end);
  const { "content-type": _omit, ...headers } = client.headers();
  const saved = await fetch(`${client.base}/api/dashboards/${data.id}`, { method: "POST", headers, body: form });
  if (!saved.ok) throw new Error(`save ${saved.status} ${await saved.text()}`);
  return created.data.permalink;
}

interface WidgetAnswer {
  data: { current: unknown; previous: unknown; errors: unknown[]; notices?: unknown[] };
}

/** One view of the dashboard as the SPA loads it: the dashboard, then every widget's data at once (with comparison). */
async function loadDashboard(client: BenchClient, permalink: string) {
  const { data } = await client.call<{ data: { startDate: string; endDate: string; widgets: TWidget[] } }>(
    "GET",
    `/api/dashboards/${permalink}?timezone=UTC`,
  );
  const answers = await Promise.all(
    data.widgets
      .filter((widget) => widget.nature === "interactive")
      .map((widget) =>
        client.call<WidgetAnswer>("POST", "/api/widgets/data", {
          widgetId: widget.id,
          instances: widget.instances,
          startDate: data.startDate,
          endDate: data.endDate,
          timezone: "UTC",
        }),
      ),
  );
  const failed = answers.filter(
    (answer) =>
      answer.data.errors.length > 0 ||
      (answer.data.notices?.length ?? 0) > 0 ||
      !answer.data.current ||
      !answer.data.previous,
  ).length;
  return { widgets: data.widgets, startDate: data.startDate, endDate: data.endDate, answers: answers.length, failed };
}

const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");

/**
 * (g) The GA4 connector against the local Google fake (answering each report in ~150 ms): 50
 * concurrent cold loads of a 24-widget dashboard on one property, counted at the fake (runReport calls
 * against distinct queries, most at once on the property); then the server restarted on the same
 * SQLite file and the dashboard viewed again (settled range: served from the stored results).
 */
export async function ga4ColdLoads(loads = 50) {
  const fakes = await startFakes({ google: googleFake() });
  const google = fakes.parts.google;
  google.reportLatencyMs = REPORT_LATENCY_MS;
  let server: BenchServer | null = null;
  let dataDir: string | undefined;
  try {
    server = await startServer(undefined, { env: fakes.env, keepData: true });
    dataDir = server.dataDir;
    const client = new BenchClient(server.url);
    const { email, password } = await client.signUp();
    const sourceId = await connectGoogleAnalytics(server, client, fakes.url);
    // Settled: 30 days ending 10 days ago (GA4 settles in 3), and its comparison the 30 days before.
    const end = shiftDay(todayInTimezone("UTC"), -10);
    const start = shiftDay(end, -29);
    const widgets = ga4Widgets(sourceId);
    const permalink = await saveDashboard(client, widgets, start, end);

    const compare = defaultCompareRange(start, end);
    const distinct = new Set(
      widgets.flatMap((widget) =>
        [
          { startDate: start, endDate: end },
          { startDate: compare.startDate, endDate: compare.endDate },
        ].map((range) => JSON.stringify([widget.nature === "interactive" ? widget.instances[0]?.inputs : null, range])),
      ),
    ).size;

    const isReport = (call: { method: string; path: string }) =>
      call.method === "POST" && call.path.endsWith(":runReport");
    const before = google.calls.length;
    google.maxInFlight.clear();
    const started = performance.now();
    const views = await Promise.all(Array.from({ length: loads }, () => loadDashboard(client, permalink)));
    const elapsed = performance.now() - started;
    const coldCalls = google.calls.slice(before);
    const reports = coldCalls.filter(isReport);
    const reportBodies = new Set(reports.map((call) => call.body)).size;
    const otherCalls = coldCalls.length - reports.length;
    const metadataCalls = coldCalls.filter((call) => call.path.endsWith("/metadata")).length;
    const requests = views.reduce((sum, view) => sum + view.answers, 0);
    const failed = views.reduce((sum, view) => sum + view.failed, 0);
    const peak = google.maxInFlight.get(PROPERTY) ?? 0;

    // A restart: a new server (new process state, empty caches) on the same SQLite file.
    await server.close();
    server = null;
    server = await startServer(undefined, { env: fakes.env, dataDir, keepData: true });
    const again = new BenchClient(server.url);
    await again.signIn(email, password);
    const beforeRepeat = google.calls.length;
    const repeatStarted = performance.now();
    const repeat = await loadDashboard(again, permalink);
    const repeatElapsed = performance.now() - repeatStarted;
    const repeatCalls = google.calls.slice(beforeRepeat);
    const repeatReports = repeatCalls.filter(isReport).length;

    const oneEach = reports.length === distinct && reportBodies === distinct;
    console.log(
      `(g) GA4: ${loads} concurrent cold loads of a ${widgets.length}-widget dashboard (${requests} widget requests in ${Math.round(elapsed)} ms, fake answering each report in ${REPORT_LATENCY_MS} ms, ${failed} answers with errors or notices): ` +
        `${reports.length} runReport calls (${reportBodies} distinct bodies) for ${distinct} distinct queries (goal one each: ${verdict(oneEach)}), ` +
        `and ${otherCalls} other calls to Google (${metadataCalls} of them the property's metadata); ` +
        `at most ${peak} at once on property ${PROPERTY} (goal ≤ ${PROPERTY_LIMIT}: ${verdict(peak > 0 && peak <= PROPERTY_LIMIT)}); ` +
        `after a restart, a repeat view (${repeat.answers} widget requests in ${Math.round(repeatElapsed)} ms, ${repeat.failed} with errors or notices) ` +
        `made ${repeatReports} runReport calls, ${repeatCalls.length} calls to Google in all (goal 0: ${verdict(repeatReports === 0)})`,
    );
    return {
      requests,
      distinct,
      reports: reports.length,
      reportBodies,
      otherCalls,
      metadataCalls,
      peak,
      repeatReports,
      repeatCalls: repeatCalls.length,
      failed,
      repeatFailed: repeat.failed,
    };
  } finally {
    await server?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    await fakes.close();
  }
}

/** Found by bench/run-all.ts (`npx tsx bench/run-all.ts ga4`), in its place among the others. */
export const benchmark: ConnectorBenchmark = { name: "ga4", run: () => ga4ColdLoads() };
