import { DatasetComponent } from "echarts/components";

export default DatasetComponent;
