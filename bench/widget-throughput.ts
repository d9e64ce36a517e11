import autocannon from "autocannon";
import { BenchClient, fmt, seedDashboard, startServer } from "./lib";

/** (a) Cached widget-data throughput against a hello-world route of the same server, same run. */
export async function widgetThroughput(): Promise<{ ratio: number; widget: number; hello: number }> {
  const server = await startServer();
  try {
    const client = new BenchClient(server.url);
    await client.signUp();
    const { widgets, startDate, endDate } = await seedDashboard(client);
    const widget = widgets[0];
    if (widget.nature !== "interactive") throw new Error("expected an interactive widget");
    const body = JSON.stringify({
      widgetId: widget.id,
      instances: widget.instances,
      startDate,
      endDate,
      timezone: "UTC",
    });
    await client.call("POST", "/api/widgets/data", JSON.parse(body)); // warm the cache
    const run = (opts: autocannon.Options) =>
      new Promise<autocannon.Result>((resolve, reject) =>
        autocannon({ connections: 50, duration: 5, ...opts }, (error, result) =>
          error ? reject(error) : resolve(result),
        ),
      );
    await run({ url: `${server.url}/bench/hello`, duration: 1 }); // JIT warm-up
    const hello = await run({ url: `${server.url}/bench/hello` });
    const data = await run({ url: `${server.url}/api/widgets/data`, method: "POST", headers: client.headers(), body });
    if (data.non2xx > 0) throw new Error(`widget data answered ${data.non2xx} non-2xx responses`);
    const ratio = data.requests.average / hello.requests.average;
    console.log(
      `(a) cached widget data: ${fmt(data.requests.average, 0)} req/s (p97.5 ${data.latency.p97_5} ms) vs hello-world ${fmt(hello.requests.average, 0)} req/s → ratio ${fmt(ratio)} (goal ≥ 0.5)`,
    );
    return { ratio, widget: data.requests.average, hello: hello.requests.average };
  } finally {
    await server.close();
  }
}
