import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { BenchClient, freePort, groupCpuMs, REPO_ROOT, seedDashboard, spawnServer } from "./lib";
import { guestHeaders } from "./widget-throughput";

/**
 * A CPU profile of the server as `npm start` runs it while autocannon (this process) loads one route:
 * `npx tsx bench/profile-server.ts widget|public|health [seconds] [out-dir]`; then
 * `node bench/profile-summary.mjs <out-dir>/*.cpuprofile` prints the top self and total times.
 */
const target = process.argv[2] ?? "widget";
const seconds = Number(process.argv[3] ?? 10);
const outDir = path.resolve(process.argv[4] ?? fs.mkdtempSync(path.join(os.tmpdir(), "reportz-profile-")));
fs.mkdirSync(outDir, { recursive: true });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-profile-data-"));
const port = await freePort();
// What `npm start` runs (build.mjs, then dist/main.mjs), with the profiler on: Node refuses --cpu-prof in
// NODE_OPTIONS. FROM_SOURCE=1 runs the TypeScript through tsx instead, as tests and `npm run dev` do.
const fromSource = process.env.FROM_SOURCE === "1";
if (!fromSource) execFileSync(process.execPath, ["build.mjs"], { cwd: path.join(REPO_ROOT, "apps/server") });
const server = await spawnServer(
  process.execPath,
  // PROFILE=0 measures the same run without the profiler's own cost; NODE_ARGS adds flags to try.
  [
    ...(process.env.PROFILE === "0" ? [] : ["--cpu-prof", `--cpu-prof-dir=${outDir}`]),
    ...(process.env.NODE_ARGS ?? "").split(" ").filter(Boolean),
    ...(fromSource ? ["--import", "tsx", "src/main.ts"] : ["--enable-source-maps", "dist/main.mjs"]),
  ],
  {
    cwd: path.join(REPO_ROOT, "apps/server"),
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1" },
    port,
    readyPath: "/api/health",
    logFile: path.join(dataDir, "server.log"),
  },
);
try {
  const client = new BenchClient(server.url);
  await client.signUp();
  const { widgets, startDate, endDate, permalink } = await seedDashboard(client);
  const widget = widgets[0];
  const body = {
    widgetId: widget.id,
    instances: widget.nature === "interactive" ? widget.instances : [],
    startDate,
    endDate,
    timezone: "UTC",
  };
  await client.call("POST", "/api/widgets/data", body);
  const options: autocannon.Options =
    target === "health"
      ? { url: `${server.url}/api/health` }
      : target === "public"
        ? {
            url: `${server.url}/api/dashboards/${permalink}/widgets/${widget.id}/data`,
            method: "POST",
            headers: await guestHeaders(server.url),
            body: JSON.stringify({ startDate, endDate, timezone: "UTC" }),
          }
        : {
            url: `${server.url}/api/widgets/data`,
            method: "POST",
            headers: client.headers(),
            body: JSON.stringify(body),
          };
  if (process.env.SHOW === "1") {
    const probe = await fetch(options.url as string, {
      method: options.method ?? "GET",
      headers: options.headers as Record<string, string> | undefined,
      body: options.body as string | undefined,
    });
    const headers: string[] = [];
    probe.headers.forEach((value, name) => {
      headers.push(`${name}: ${value}`);
    });
    console.log(probe.status, headers.join("\n"));
    console.log(`${(await probe.arrayBuffer()).byteLength} bytes of body`);
  }
  await autocannon({ connections: 50, duration: 1, ...options }); // JIT warm-up
  const cpuBefore = groupCpuMs(server.pid);
  const [userBefore, sysBefore] = userSysTicks(server.pid);
  const result = await autocannon({ connections: 50, duration: seconds, ...options });
  const cpuAfter = groupCpuMs(server.pid);
  const [userAfter, sysAfter] = userSysTicks(server.pid);
  const perRequest = (ticks: number) => Math.round((ticks * 10_000) / result.requests.total);
  const cpuUs = cpuBefore === null || cpuAfter === null ? NaN : ((cpuAfter - cpuBefore) * 1000) / result.requests.total;
  console.log(
    `${target}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, ${Math.round(cpuUs)} µs CPU/request (user ${perRequest(userAfter - userBefore)}, system ${perRequest(sysAfter - sysBefore)}), non-2xx ${result.non2xx}`,
  );
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(`profiles in ${outDir}`);

/** User and system CPU ticks (1/100 s) of one process, from /proc. */
function userSysTicks(pid: number): [number, number] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return [Number(fields[11]), Number(fields[12])];
}
