import type { TInteractiveWidget, TTable } from "@app/core";
import { LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { install as SVGRenderer } from "echarts/lib/renderer/installSVGRenderer";
import type { ChartInput } from "../features/widgets/charts/chart-common";
import { type ChartSize, chartSvg } from "../features/widgets/charts/chart-svg";

let installed = false;

/**
 * A chart's SVG drawn in the server (POST /api/chart-snapshots), as the browser's snapshot worker draws it
 * (charts/chart-svg.worker.ts): the same option and library, the SVG renderer and the legend and tooltip
 * components. Text is measured by ECharts' own table of glyph widths (no canvas here), which the worker
 * replaces with the page's fonts; the layout of labels may differ by a pixel or two.
 */
export function drawChartSvg(input: Record<string, unknown>, size: ChartSize): Promise<string> {
  if (!installed) {
    echarts.use(SVGRenderer);
    echarts.use([LegendComponent, TooltipComponent]);
    installed = true;
  }
  return chartSvg(echarts, input as unknown as ChartInput, size);
}

/** Every chart format a dashboard draws. */
const FORMATS = ["chart:line", "chart:area", "chart:bar", "chart:pie", "chart:radar", "chart:gauge"];

/** A made-up answer of two metrics over a fortnight: enough for every format to run its whole drawing. */
function sampleInput(format: string): ChartInput {
  const days = Array.from({ length: 14 }, (_, day) => `2026-01-${String(day + 1).padStart(2, "0")}`);
  const current: TTable = {
    dimension: { key: "date", label: "Date", kind: "date" },
    metrics: [
      { key: "sample.a", label: "A", format: "number" },
      { key: "sample.b", label: "B", format: "number" },
    ],
    rows: days.map((day, index) => ({ dimension: day, values: [100 + index, 50 + index] })),
    totals: [1491, 791],
  };
  const widget = { format, title: "Sample", instances: [], percent: false, formatOptions: {} };
  return {
    widget: widget as unknown as TInteractiveWidget,
    current,
    previous: current,
    colours: { palette: ["#5b5bd6", "#12a594"], text: "#1c2024", muted: "#60646c", line: "#e0e1e6", surface: "#fff" },
    compact: false,
    comparison: "Previous period",
  };
}

/**
 * Draws one chart of each format, one per turn of the event loop, and forgets them: the first drawings
 * of a process run ECharts' code cold (its series' modules set up, nothing compiled yet), and a member's
 * first page after a start would wait for that (docs/decisions.md, "A member's dashboard rendered by the
 * server"). Called once the bundle has loaded, in the background.
 */
export async function warmChartDrawing(): Promise<void> {
  for (const format of FORMATS) {
    await new Promise((resolve) => setImmediate(resolve));
    await drawChartSvg(sampleInput(format) as unknown as Record<string, unknown>, { width: 400, height: 200 }).catch(
      () => undefined,
    );
  }
}
