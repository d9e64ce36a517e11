/// <reference lib="webworker" />
// The chart snapshots' thread (see chart-snapshots.ts): ECharts lays out and draws each first chart of a
// public view here, as an SVG string, so the page's main thread never runs ECharts' cold set-up.
import { LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { install as SVGRenderer } from "echarts/lib/renderer/installSVGRenderer";
import { loadChartParts } from "./chart-parts";
import type { SnapshotReply, SnapshotRequest } from "./chart-snapshots";
import { chartSvg } from "./chart-svg";

echarts.use(SVGRenderer);
echarts.use([LegendComponent, TooltipComponent]);
// Text is measured with the fonts the page has (a worker has no document, so no <canvas> either).
if (typeof OffscreenCanvas !== "undefined") {
  echarts.setPlatformAPI({ createCanvas: () => new OffscreenCanvas(1, 1) as unknown as HTMLCanvasElement });
}

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = async (event: MessageEvent<SnapshotRequest>) => {
  if ("warm" in event.data) {
    // Loaded now, while the page waits for its data; a failure shows again on the first drawing.
    void loadChartParts(event.data.warm).catch(() => undefined);
    return;
  }
  const { id, input, size } = event.data;
  let reply: SnapshotReply;
  try {
    reply = { id, svg: await chartSvg(echarts, input, size) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  scope.postMessage(reply);
};
