import type { ChartOption } from "./chart-types";

type Extension = Parameters<typeof import("echarts/core").use>[0];
type Loader = () => Promise<{ default: Extension }>;

/**
 * One loader per series type and optional component the widget charts use. A chart loads echarts' core
 * and only the parts its option names, so a dashboard of line and pie charts never downloads the
 * radar, gauge or bar code.
 */
const LOADERS = {
  line: () => import("./parts/line"),
  bar: () => import("./parts/bar"),
  pie: () => import("./parts/pie"),
  radar: () => import("./parts/radar"),
  gauge: () => import("./parts/gauge"),
  dataset: () => import("./parts/dataset"),
  graphic: () => import("./parts/graphic"),
} satisfies Record<string, Loader>;

export type ChartPart = keyof typeof LOADERS;

/** Every part (the print view's warm-up loads them all). */
export const CHART_PARTS = Object.keys(LOADERS) as ChartPart[];

const loaded = new Map<ChartPart, Extension>();

/** These parts if every one has been loaded already (so a chart can be drawn at once), else null. */
export function loadedChartParts(parts: ChartPart[]): Extension[] | null {
  const extensions = parts.map((part) => loaded.get(part));
  return extensions.every((extension) => extension !== undefined) ? (extensions as Extension[]) : null;
}

function isPart(name: unknown): name is ChartPart {
  return typeof name === "string" && Object.hasOwn(LOADERS, name);
}

/** The parts an option needs: its series' types, plus the optional components it sets. */
export function chartParts(option: ChartOption): ChartPart[] {
  const parts = new Set<ChartPart>();
  const series = option.series === undefined ? [] : Array.isArray(option.series) ? option.series : [option.series];
  for (const entry of series) {
    const type = (entry as { type?: unknown }).type;
    if (isPart(type)) parts.add(type);
    else throw new Error(`Chart series type "${String(type)}" has no loader in chart-parts.ts`);
  }
  if (option.radar !== undefined) parts.add("radar");
  if (option.dataset !== undefined) parts.add("dataset");
  if (option.graphic !== undefined) parts.add("graphic");
  return [...parts].sort();
}

/** Loads the given parts (each once per page; import() caches modules). */
export async function loadChartParts(parts: ChartPart[]): Promise<Extension[]> {
  return Promise.all(
    parts.map(async (part) => {
      const extension = (await LOADERS[part]()).default;
      loaded.set(part, extension);
      return extension;
    }),
  );
}
