import type { ChartInput } from "./chart-common";
import type { ChartOption } from "./chart-types";
import { gaugeChartOption, pieChartOption, radarChartOption } from "./round-charts";
import { seriesChartOption } from "./series-chart";

export type { ChartColours, ChartInput } from "./chart-common";

/** The chart option of a widget's chart format. */
export function chartOption(input: ChartInput): ChartOption {
  switch (input.widget.format) {
    case "chart:pie":
      return pieChartOption(input);
    case "chart:radar":
      return radarChartOption(input);
    case "chart:gauge":
      return gaugeChartOption(input);
    default:
      return seriesChartOption(input);
  }
}
