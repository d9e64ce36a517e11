import { RadarChart } from "echarts/charts";
import { RadarComponent } from "echarts/components";

export default [RadarChart, RadarComponent];
