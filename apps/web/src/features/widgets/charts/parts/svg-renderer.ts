// The print view's renderer (vector text in PDFs). The deep path keeps the canvas renderer, which every
// screen already has, out of this chunk.
import { install } from "echarts/lib/renderer/installSVGRenderer";

export default install;
