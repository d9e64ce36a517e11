import { BarChart } from "echarts/charts";
import { GridComponent } from "echarts/components";

export default [BarChart, GridComponent];
