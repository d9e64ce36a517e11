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
