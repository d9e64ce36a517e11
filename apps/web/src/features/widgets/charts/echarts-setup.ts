import { BarChart, GaugeChart, LineChart, PieChart, RadarChart } from "echarts/charts";
import {
  DatasetComponent,
  GraphicComponent,
  GridComponent,
  LegendComponent,
  RadarComponent,
  TooltipComponent,
} from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";

// Only what the widget formats draw is registered, so the lazily loaded chunk stays small.
echarts.use([
  LineChart,
  BarChart,
  PieChart,
  RadarChart,
  GaugeChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  DatasetComponent,
  RadarComponent,
  GraphicComponent,
  CanvasRenderer,
]);

export { echarts };
