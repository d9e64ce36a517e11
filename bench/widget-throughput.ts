import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { BenchClient, fmt, freePort, groupCpuMs, REPO_ROOT, seedDashboard, spawnServer } from "./lib";

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

interface Figure {
  rps: number;
  p99: number;
  /** CPU time the serving process spent per request (µs), when /proc tells. */
  cpuUs: number | null;
}

export interface ThroughputResult {
  hello: Figure;
  /** The hello-world process doing the widget route's I/O alone (same body in, same bytes and headers out). */
  sameIo: Figure;
  widget: Figure;
  /** The same widget's cached data through its public dashboard's permalink, asked by a visitor. */
  publicWidget: Figure;
  health: Figure;
  staticFile: Figure;
  ratio: number;
}

/**
 * (a) Request throughput of the server as `npm start` runs it, against a bare Fastify hello-world
 * process, both started by this run as separate processes and loaded by autocannon from this third
 * process (a load generator inside the server's process shares its event loop and flatters it).
 */
export async function widgetThroughput(): Promise<ThroughputResult> {
  const webDist = path.join(REPO_ROOT, "apps/web/dist");
  if (!fs.existsSync(path.join(webDist, "index.html"))) {
    execFileSync("npm", ["run", "build"], { cwd: REPO_ROOT, stdio: "inherit" });
  }
  const staticPath = `/${fs.readdirSync(webDist).find((f) => /\.(svg|ico|png)$/.test(f)) ?? "index.html"}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-bench-throughput-"));
  const [appPort, helloPort] = [await freePort(), await freePort()];
  // Exactly what `npm start` runs after its build step, with its default environment.
  const server = await spawnServer("npm", ["run", "start", "-w", "apps/server"], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(appPort), HOST: "127.0.0.1" },
    port: appPort,
    readyPath: "/api/health",
    logFile: path.join(dataDir, "server.log"),
  });
  let hello: Awaited<ReturnType<typeof spawnServer>> | null = null;
  try {
    const client = new BenchClient(server.url);
    await client.signUp();
    const { widgets, startDate, endDate, permalink } = await seedDashboard(client);
    const widget = widgets[0];
    if (widget.nature !== "interactive") throw new Error("expected an interactive widget");
    const body = JSON.stringify({
      widgetId: widget.id,
      instances: widget.instances,
      startDate,
      endDate,
      timezone: "UTC",
    });
    await client.call("POST", "/api/widgets/data", JSON.parse(body)); // fills the answer cache
    // The cached answer as a client gets it (bytes and headers), for the baseline doing the same I/O.
    const answer = await fetch(`${server.url}/api/widgets/data`, { method: "POST", headers: client.headers(), body });
    const sameIoFile = path.join(dataDir, "same-io.json");
    const answerHeaders: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!["date", "connection", "keep-alive", "content-length"].includes(name)) answerHeaders[name] = value;
    });
    fs.writeFileSync(sameIoFile, JSON.stringify({ headers: answerHeaders, body: await answer.text() }));
    hello = await spawnServer(process.execPath, [path.join(import.meta.dirname, "hello-world.mjs")], {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: String(helloPort), SAME_IO_FILE: sameIoFile },
      port: helloPort,
      readyPath: "/",
      logFile: path.join(dataDir, "hello.log"),
    });
    const visitor = await guestHeaders(server.url);
    const publicUrl = `${server.url}/api/dashboards/${permalink}/widgets/${widget.id}/data`;
    const publicBody = JSON.stringify({ startDate, endDate, timezone: "UTC" });
    const warm = await fetch(publicUrl, { method: "POST", headers: visitor, body: publicBody });
    if (!warm.ok) throw new Error(`public widget data ${warm.status}`);

    const targets: Record<string, autocannon.Options> = {
      hello: { url: `${hello.url}/` },
      sameIo: { url: `${hello.url}/same-io`, method: "POST", headers: client.headers(), body },
      widget: { url: `${server.url}/api/widgets/data`, method: "POST", headers: client.headers(), body },
      publicWidget: { url: publicUrl, method: "POST", headers: visitor, body: publicBody },
      health: { url: `${server.url}/api/health` },
      staticFile: { url: server.url + staticPath },
    };
    const pidOf: Record<string, number> = { hello: hello.pid, sameIo: hello.pid };
    const run = async (name: string, duration: number): Promise<Figure> => {
      const pgid = pidOf[name] ?? server.pid;
      const cpuBefore = groupCpuMs(pgid);
      const result = await new Promise<autocannon.Result>((resolve, reject) =>
        autocannon({ connections: CONNECTIONS, duration, ...targets[name] }, (error, r) =>
          error ? reject(error) : resolve(r),
        ),
      );
      if (result.non2xx > 0 || result.errors > 0) {
        throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
      }
      const cpuAfter = groupCpuMs(pgid);
      const cpuUs =
        cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / result.requests.total;
      return { rps: result.requests.average, p99: result.latency.p99, cpuUs };
    };
    for (const name of Object.keys(targets)) await run(name, 1); // JIT warm-up of both processes
    // Short rounds, each measuring the baseline right before the product: when other work on the shared
    // cores comes and goes, the ratio of neighbours holds; every figure printed is the median of rounds.
    const rounds: Array<Record<string, Figure>> = [];
    for (let i = 0; i < ROUNDS; i++) {
      const round: Record<string, Figure> = {};
      for (const name of Object.keys(targets)) round[name] = await run(name, SECONDS);
      rounds.push(round);
    }
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    };
    const figure = (name: string): Figure & { ratio: number } => ({
      rps: median(rounds.map((r) => r[name].rps)),
      p99: median(rounds.map((r) => r[name].p99)),
      cpuUs: rounds.some((r) => r[name].cpuUs === null) ? null : median(rounds.map((r) => r[name].cpuUs as number)),
      ratio: median(rounds.map((r) => r[name].rps / r.hello.rps)),
    });
    const [helloFigure, sameIo, widgetFigure, publicWidget, health, staticFile] = [
      "hello",
      "sameIo",
      "widget",
      "publicWidget",
      "health",
      "staticFile",
    ].map(figure);
    const ratio = widgetFigure.ratio;
    const line = (label: string, f: Figure & { ratio: number }) =>
      `    ${label.padEnd(34)} ${fmt(f.rps, 0).padStart(7)} req/s  p99 ${fmt(f.p99, 0).padStart(3)} ms  ${f.cpuUs === null ? "" : `${fmt(f.cpuUs, 0).padStart(4)} µs CPU/request  `}(${fmt(f.ratio)} of hello-world)`;
    console.log(
      `(a) request throughput, ${CONNECTIONS} connections, load generator in its own process; median of ${ROUNDS} rounds of ${SECONDS} s per target`,
    );
    console.log(line("bare Fastify hello-world process", helloFigure));
    console.log(line("bare Fastify, the widget route's I/O", sameIo));
    console.log(line("cached POST /api/widgets/data", widgetFigure));
    console.log(line("the same, public dashboard, visitor", publicWidget));
    console.log(line("GET /api/health", health));
    console.log(line(`GET ${staticPath} (static file)`, staticFile));
    console.log(
      `    cached widget data ratio ${fmt(ratio)} (goal ≥ 0.5), p99 ${fmt(widgetFigure.p99, 0)} ms (goal ≤ 20 ms)`,
    );
    return { hello: helloFigure, sameIo, widget: widgetFigure, publicWidget, health, staticFile, ratio };
  } finally {
    await hello?.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A visitor without an account, as the public page makes one: guest cookie and identification from page data. */
export async function guestHeaders(base: string): Promise<Record<string, string>> {
  const page = await fetch(`${base}/api/page-data`);
  const cookie = (page.headers.getSetCookie().find((c) => c.startsWith("guest=")) ?? "").split(";")[0];
  const { identification } = (await page.json()) as { identification: string };
  return {
    cookie,
    "content-type": "application/json",
    "x-requested-with": "XMLHttpRequest",
    "x-identification": identification,
  };
}
