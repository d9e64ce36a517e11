// echarts ships this module without listing it in its package exports; Vite bundles it, TypeScript
// needs its shape (an echarts extension, as `echarts/renderers` exports it).
declare module "echarts/lib/renderer/installSVGRenderer" {
  import type { use } from "echarts/core";
  export const install: Parameters<typeof use>[0];
}
