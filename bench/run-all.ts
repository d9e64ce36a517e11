import { coldFanout } from "./cold-fanout";
import { dashboardRender } from "./dashboard-render";
import { ga4ColdLoads } from "./ga4-cold-loads";
import { lighthouseBench } from "./lighthouse";
import { pdfRender } from "./pdf-render";
import { pdfAfterStart, pdfClickToDownload } from "./pdf-start-and-click";
import { reportDelivery } from "./report-delivery";
import { widgetThroughput } from "./widget-throughput";

/** Runs every benchmark once on this machine and prints the figures (not a test: nothing fails on a slow run). */
async function main() {
  const only = process.argv[2];
  console.log(`Benchmarks on ${process.platform} ${process.arch}, Node ${process.version}\n`);
  if (!only || only === "throughput") await widgetThroughput();
  if (!only || only === "render") await dashboardRender();
  if (!only || only === "fanout") await coldFanout();
  if (!only || only === "ga4") await ga4ColdLoads();
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
