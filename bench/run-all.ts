import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { coldFanout } from "./cold-fanout";
import { dashboardRender } from "./dashboard-render";
import { type ConnectorBenchmark, REPO_ROOT } from "./lib";
import { lighthouseBench } from "./lighthouse";
import { pdfRender } from "./pdf-render";
import { pdfAfterStart, pdfClickToDownload } from "./pdf-start-and-click";
import { reportDelivery } from "./report-delivery";
import { widgetThroughput } from "./widget-throughput";

/** The connectors' own benchmarks: apps/server/src/connectors/<key>/bench/*.ts, each exporting `benchmark`. */
async function connectorBenchmarks(): Promise<ConnectorBenchmark[]> {
  const connectors = path.join(REPO_ROOT, "apps/server/src/connectors");
  const files = fs
    .readdirSync(connectors)
    .map((key) => path.join(connectors, key, "bench"))
    .filter((dir) => fs.existsSync(dir))
    .flatMap((dir) => fs.readdirSync(dir).map((file) => path.join(dir, file)))
    .filter((file) => file.endsWith(".ts"))
    .sort();
  const found: ConnectorBenchmark[] = [];
  for (const file of files)
    found.push(((await import(pathToFileURL(file).href)) as { benchmark: ConnectorBenchmark }).benchmark);
  return found;
}

/** Runs every benchmark once on this machine and prints the figures (not a test: nothing fails on a slow run). */
async function main() {
  const only = process.argv[2];
  console.log(`Benchmarks on ${process.platform} ${process.arch}, Node ${process.version}\n`);
  if (!only || only === "throughput") await widgetThroughput();
  if (!only || only === "render") await dashboardRender();
  if (!only || only === "fanout") await coldFanout();
  for (const bench of await connectorBenchmarks()) if (!only || only === bench.name) await bench.run();
  if (!only || only === "lighthouse") await lighthouseBench();
  if (!only || only === "pdf") await pdfRender();
  if (!only || only === "pdf-ui") await pdfClickToDownload();
  if (!only || only === "pdf-start") await pdfAfterStart();
  if (!only || only === "reports") await reportDelivery();
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
