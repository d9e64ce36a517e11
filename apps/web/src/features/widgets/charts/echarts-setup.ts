import { LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";

// What every chart uses; each series type and optional component is its own chunk (./parts), loaded
// with the first chart that draws it (see chartParts).
echarts.use([CanvasRenderer, TooltipComponent, LegendComponent]);

export { echarts };
