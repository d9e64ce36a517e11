import type { ChartInput } from "./chart-common";
import { chartOption } from "./chart-options";
import { chartParts, loadChartParts } from "./chart-parts";

type EChartsCore = typeof import("echarts/core");

/** A chart's size in CSS pixels. */
export interface ChartSize {
  width: number;
  height: number;
}

/**
 * The chart a widget's input draws, as an SVG document: ECharts' own server-side rendering (no DOM),
 * the same option the live chart gets, without animation. `echarts` must have the SVG renderer and the
 * legend and tooltip components installed; the series parts the option names are added here.
 */
export async function chartSvg(echarts: EChartsCore, input: ChartInput, size: ChartSize): Promise<string> {
  const option = chartOption(input);
  echarts.use((await loadChartParts(chartParts(option))).flat());
  const chart = echarts.init(null, undefined, { renderer: "svg", ssr: true, ...size });
  try {
    chart.setOption({ ...option, animation: false });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
