import { Box } from "@mantine/core";
import { useContext, useEffect, useRef } from "react";
import { PrintModeContext } from "../print";
import { chartParts, loadChartParts } from "./chart-parts";
import type { ChartOption } from "./chart-types";

type EChartsModule = typeof import("./echarts-setup");
type ECharts = EChartsModule["echarts"];
type ChartInstance = ReturnType<ECharts["init"]>;

let loading: Promise<EChartsModule> | null = null;

/**
 * echarts' core with the parts this option draws (series types, components), fetched in parallel on
 * the first chart that needs them; the core is loaded once for the page.
 */
async function loadECharts(option: ChartOption): Promise<ECharts> {
  loading ??= import("./echarts-setup");
  const [{ echarts }, parts] = await Promise.all([loading, loadChartParts(chartParts(option))]);
  echarts.use(parts.flat());
  return echarts;
}

/**
 * Resolves once the element comes within a short scroll of the viewport (at once where
 * IntersectionObserver is missing); `cancel` stops watching.
 */
function nearViewport(element: Element): { visible: Promise<void>; cancel: () => void } {
  if (typeof IntersectionObserver === "undefined") return { visible: Promise.resolve(), cancel: () => {} };
  let observer: IntersectionObserver | null = null;
  const visible = new Promise<void>((resolve) => {
    observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer?.disconnect();
        resolve();
      },
      { rootMargin: "200px 0px" },
    );
    observer.observe(element);
  });
  return { visible, cancel: () => observer?.disconnect() };
}

interface Props {
  option: ChartOption;
  /**
   * Draw only once the chart comes near the viewport. A dashboard's charts below the fold cost a phone
   * most of its first second (ECharts' set-up and layout per chart); they are drawn as the reader
   * scrolls to them. The card stays busy (not ready) until then. Off in print and on wall displays.
   */
  whenVisible?: boolean;
  /** Accessible description of the chart (canvas content is invisible to assistive technology). */
  label: string;
  /** Called once the option has been drawn. */
  onRendered?: () => void;
}

/** An ECharts canvas that follows its option and resizes with its container (the widget card). */
/** Print: SVG (vector text in the PDF, not a bitmap). */
async function loadSvgRenderer(echarts: ECharts) {
  echarts.use((await import("./parts/svg-renderer")).default);
}

/**
 * Print draws without animation (the PDF is taken once drawn). So does every chart's first draw: on a
 * phone, a dashboard's charts growing in at once were a second of animation frames competing with the
 * rest of the page; later changes (a new range, a realtime refresh) still animate.
 */
function withoutAnimation(option: ChartOption, still: boolean): ChartOption {
  return still ? ({ ...option, animation: false } as ChartOption) : option;
}

/** Resolves in a later task, so the browser may draw and answer input first. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export function EChart({ option, label, onRendered, whenVisible = false }: Props) {
  const print = useContext(PrintModeContext) !== null;
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartInstance | null>(null);
  const latest = useRef({ option, onRendered });
  latest.current = { option, onRendered };

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let disposed = false;
    let observer: ResizeObserver | null = null;
    let frame = 0;
    const near = whenVisible ? nearViewport(element) : null;
    void (near?.visible ?? Promise.resolve()).then(async () => {
      if (disposed) return;
      const echarts = await loadECharts(latest.current.option);
      if (disposed) return;
      // The option may have changed (and need other parts) while echarts loaded.
      await loadECharts(latest.current.option);
      // Each chart draws in tasks of its own, not in the render that mounted it: the set-up (canvas,
      // zrender) in one, the option (layout and drawing, most of the time) in the next, with the browser
      // free to draw and answer input in between (issue 6 §5).
      await nextTask();
      if (disposed) return;
      if (print) await loadSvgRenderer(echarts);
      if (disposed) return;
      const instance = echarts.init(element, undefined, { renderer: print ? "svg" : "canvas" });
      chart.current = instance;
      await nextTask();
      if (disposed) return;
      instance.setOption(withoutAnimation(latest.current.option, true), { notMerge: true });
      // Browser tests read what was drawn (the option, text positions) from the element.
      (element as HTMLElement & { echartsInstance?: ChartInstance }).echartsInstance = instance;
      // Paint now, in this chart's own task: left to zrender, every chart of the screen paints in the
      // same animation frame, one long task of all of them (close to a second on a phone).
      instance.getZr().flush();
      latest.current.onRendered?.();
      observer = new ResizeObserver(() => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => instance.resize());
      });
      observer.observe(element);
    });
    return () => {
      disposed = true;
      near?.cancel();
      cancelAnimationFrame(frame);
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [print, whenVisible]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance) return;
    let current = true;
    // A new option may draw a series type not loaded yet (a widget switched from line to radar).
    void loadECharts(option).then(() => {
      if (!current || instance.isDisposed()) return;
      instance.setOption(withoutAnimation(option, print), { notMerge: true });
      latest.current.onRendered?.();
    });
    return () => {
      current = false;
    };
  }, [option, print]);

  return <Box ref={container} role="img" aria-label={label} w="100%" h="100%" mih={0} />;
}
