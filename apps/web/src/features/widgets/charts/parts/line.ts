import { LineChart } from "echarts/charts";
import { GridComponent } from "echarts/components";

export default [LineChart, GridComponent];
