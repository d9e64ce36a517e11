import type { TWidget } from "@app/core";
import { upstreamCallCount } from "../apps/server/src/features/widgets/query-runner";
import { BenchClient, seedDashboard, startServer } from "./lib";

/** (c) Upstream calls made by 50 concurrent cold loads of one 24-widget dashboard. */
export async function coldFanout(loads = 50): Promise<{ upstream: number; distinct: number; requests: number }> {
  const server = await startServer();
  try {
    const client = new BenchClient(server.url);
    await client.signUp();
    const { widgets, startDate, endDate } = await seedDashboard(client);
    const requestFor = (widget: TWidget) =>
      widget.nature === "interactive"
        ? { widgetId: widget.id, instances: widget.instances, startDate, endDate, timezone: "UTC" }
        : null;
    // Each widget asks for its range and its comparison range: two distinct upstream queries.
    const distinct = widgets.filter((w) => w.nature === "interactive").length * 2;
    const before = upstreamCallCount();
    const started = performance.now();
    const all = Array.from({ length: loads }, () =>
      Promise.all(
        widgets
          .map((w) => requestFor(w))
          .filter(Boolean)
          .map((body) => client.call("POST", "/api/widgets/data", body)),
      ),
    );
    const results = await Promise.all(all);
    const elapsed = performance.now() - started;
    const upstream = upstreamCallCount() - before;
    const requests = results.reduce((sum, r) => sum + r.length, 0);
    console.log(
      `(c) ${loads} concurrent cold loads (${requests} widget requests in ${Math.round(elapsed)} ms): ${upstream} upstream calls for ${distinct} distinct queries (goal: one per distinct query)`,
    );
    return { upstream, distinct, requests };
  } finally {
    await server.close();
  }
}
