import { GraphicComponent } from "echarts/components";

export default GraphicComponent;
