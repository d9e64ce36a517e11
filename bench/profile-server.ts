import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { BenchClient, freePort, REPO_ROOT, seedDashboard, spawnServer } from "./lib";

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
// What `npm start` runs (tsx src/main.ts), with the profiler on: Node refuses --cpu-prof in NODE_OPTIONS.
const server = await spawnServer(
  process.execPath,
  ["--cpu-prof", `--cpu-prof-dir=${outDir}`, "--import", "tsx", "src/main.ts"],
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
            headers: { "content-type": "application/json", "x-requested-with": "XMLHttpRequest" },
            body: JSON.stringify({ startDate, endDate, timezone: "UTC" }),
          }
        : {
            url: `${server.url}/api/widgets/data`,
            method: "POST",
            headers: client.headers(),
            body: JSON.stringify(body),
          };
  const result = await autocannon({ connections: 50, duration: seconds, ...options });
  console.log(
    `${target}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`,
  );
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(`profiles in ${outDir}`);
