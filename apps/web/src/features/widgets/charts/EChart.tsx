import { Box } from "@mantine/core";
import { useEffect, useRef } from "react";
import type { ChartOption } from "./chart-types";

type EChartsModule = typeof import("./echarts-setup");
type ChartInstance = ReturnType<EChartsModule["echarts"]["init"]>;

let loading: Promise<EChartsModule> | null = null;

/** Loads echarts (with only the parts the widgets use) on the first chart, once for the page. */
function loadECharts(): Promise<EChartsModule> {
  loading ??= import("./echarts-setup");
  return loading;
}

interface Props {
  option: ChartOption;
  /** Accessible description of the chart (canvas content is invisible to assistive technology). */
  label: string;
  /** Called once the option has been drawn. */
  onRendered?: () => void;
}

/** An ECharts canvas that follows its option and resizes with its container (the widget card). */
export function EChart({ option, label, onRendered }: Props) {
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
    void loadECharts().then(async ({ echarts }) => {
      // Each chart draws in its own task, not in the render that mounted it: a phone's main thread gets
      // short tasks between charts (input stays responsive; total blocking time drops).
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (disposed) return;
      const instance = echarts.init(element, undefined, { renderer: "canvas" });
      chart.current = instance;
      instance.setOption(latest.current.option, { notMerge: true });
      latest.current.onRendered?.();
      observer = new ResizeObserver(() => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => instance.resize());
      });
      observer.observe(element);
    });
    return () => {
      disposed = true;
      cancelAnimationFrame(frame);
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (!chart.current) return;
    chart.current.setOption(option, { notMerge: true });
    latest.current.onRendered?.();
  }, [option]);

  return <Box ref={container} role="img" aria-label={label} w="100%" h="100%" mih={0} />;
}
