import { DEFAULT_FORMAT_OPTIONS, type TInteractiveWidget, type TTable, type TTableMetric } from "@app/core";
import { compareRows, formatAxisValue, formatDimension, formatMetric, visibleMetrics } from "../data/view-model";
import { type ChartInput, label, legend, MAX_SLICES, tooltipBase } from "./chart-common";
import type { ChartOption } from "./chart-types";

interface Slice {
  name: string;
  value: number | null;
}

function pieSlices(
  current: TTable,
  widget: TInteractiveWidget,
  compact: boolean,
): { slices: Slice[]; metric?: TTableMetric } {
  const columns = visibleMetrics(current, widget);
  if (current.dimension && columns[0]) {
    const column = columns[0];
    const rows = [...current.rows].sort((a, b) => (b.values[column.index] ?? 0) - (a.values[column.index] ?? 0));
    const top = rows.slice(0, MAX_SLICES - 1);
    const rest = rows.slice(MAX_SLICES - 1);
    const slices = top.map((row) => ({
      name: formatDimension(row.dimension, current),
      value: row.values[column.index],
    }));
    if (rest.length > 0) {
      slices.push({ name: "Other", value: rest.reduce((sum, row) => sum + (row.values[column.index] ?? 0), 0) });
    }
    return { slices, metric: column.metric };
  }
  return {
    slices: columns.map((column) => ({ name: label(column.metric, compact), value: current.totals[column.index] })),
    metric: columns[0]?.metric,
  };
}

/** Pie chart of the first metric over the dimension (or of the metric totals); doughnut option. */
export function pieChartOption({ widget, current, colours, compact }: ChartInput): ChartOption {
  const { slices, metric } = pieSlices(current, widget, compact);
  const doughnut = widget.formatOptions.doughnut ?? DEFAULT_FORMAT_OPTIONS["chart:pie"].doughnut;
  const format = (value: unknown) => (metric ? formatMetric(typeof value === "number" ? value : null, metric) : "");
  return {
    color: [...colours.palette],
    animationDuration: 450,
    textStyle: { fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif" },
    tooltip: { ...tooltipBase(colours), trigger: "item", valueFormatter: format },
    legend: compact
      ? {
          ...(legend(
            slices.map((slice) => slice.name),
            colours,
            compact,
          ) as object),
          top: "auto",
          bottom: 0,
          left: "center",
        }
      : {
          ...(legend(
            slices.map((slice) => slice.name),
            colours,
            compact,
          ) as object),
          orient: "vertical",
          top: "middle",
          left: "auto",
          right: 0,
          formatter: (name: string) => (name.length > 22 ? `${name.slice(0, 21)}…` : name),
        },
    series: [
      {
        type: "pie",
        radius: doughnut ? ["40%", compact ? "60%" : "74%"] : [0, compact ? "60%" : "74%"],
        center: compact ? ["50%", "40%"] : ["36%", "52%"],
        avoidLabelOverlap: true,
        padAngle: doughnut ? 1.5 : 0,
        itemStyle: { borderColor: colours.surface, borderWidth: 2, borderRadius: doughnut ? 4 : 2 },
        label: { show: false },
        labelLine: { show: false },
        emphasis: { scale: true, scaleSize: 4 },
        data: slices.map((slice) => ({ name: slice.name, value: slice.value ?? 0 })),
      },
    ],
  };
}

/**
 * Radar chart. Several metrics: one spoke per metric, current and previous totals as two shapes
 * (each spoke scaled to its own largest value). One metric over a dimension: one spoke per value.
 */
export function radarChartOption({ widget, current, previous, colours, compact }: ChartInput): ChartOption {
  const columns = visibleMetrics(current, widget);
  const visibleLabels = widget.formatOptions.visibleLabels ?? DEFAULT_FORMAT_OPTIONS["chart:radar"].visibleLabels;
  let indicators: Array<{ name: string; max: number }>;
  let shapes: Array<{ name: string; value: number[]; texts: string[] }>;

  if (columns.length === 1 && current.dimension) {
    const column = columns[0];
    const rows = compareRows(current, previous)
      .sort((a, b) => (b.values[column.index] ?? 0) - (a.values[column.index] ?? 0))
      .slice(0, MAX_SLICES);
    const max = Math.max(
      1,
      ...rows.flatMap((row) => [row.values[column.index] ?? 0, row.previous?.[column.index] ?? 0]),
    );
    indicators = rows.map((row) => ({ name: formatDimension(row.dimension, current), max: max * 1.1 }));
    shapes = [
      {
        name: previous ? "Current period" : label(column.metric, compact),
        value: rows.map((row) => row.values[column.index] ?? 0),
        texts: rows.map((row) => formatMetric(row.values[column.index], column.metric)),
      },
    ];
    if (previous) {
      shapes.push({
        name: "Previous period",
        value: rows.map((row) => row.previous?.[column.index] ?? 0),
        texts: rows.map((row) => formatMetric(row.previous?.[column.index], column.metric)),
      });
    }
  } else {
    const spokes = columns.slice(0, MAX_SLICES);
    indicators = spokes.map((column) => ({
      name: label(column.metric, true),
      max:
        Math.max(1e-9, Math.abs(current.totals[column.index] ?? 0), Math.abs(previous?.totals[column.index] ?? 0)) *
        1.15,
    }));
    shapes = [
      {
        name: "Current period",
        value: spokes.map((column) => current.totals[column.index] ?? 0),
        texts: spokes.map((column) => formatMetric(current.totals[column.index], column.metric)),
      },
    ];
    if (previous) {
      shapes.push({
        name: "Previous period",
        value: spokes.map((column) => previous.totals[column.index] ?? 0),
        texts: spokes.map((column) => formatMetric(previous.totals[column.index], column.metric)),
      });
    }
  }

  return {
    color: [...colours.palette],
    animationDuration: 450,
    textStyle: { fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif" },
    legend: legend(
      shapes.map((shape) => shape.name),
      colours,
      compact,
    ),
    tooltip: { ...tooltipBase(colours), trigger: "item" },
    radar: {
      indicator: indicators,
      radius: compact ? "52%" : "66%",
      center: ["50%", shapes.length > 1 ? "56%" : "52%"],
      axisName: { color: colours.muted, fontSize: 11 },
      splitLine: { lineStyle: { color: colours.line } },
      splitArea: { show: false },
      axisLine: { lineStyle: { color: colours.line } },
    },
    series: [
      {
        type: "radar",
        symbolSize: 5,
        data: shapes.map((shape, index) => ({
          name: shape.name,
          value: shape.value,
          lineStyle: { width: 2, type: index === 0 ? "solid" : "dashed" },
          areaStyle: { opacity: index === 0 ? 0.18 : 0.05 },
          label: {
            // Only the current shape is labelled: two sets of numbers on one spoke collide.
            show: visibleLabels && index === 0,
            color: colours.text,
            fontSize: 10,
            formatter: (params: { dataIndex?: number; value?: unknown }) => {
              const position = Array.isArray(shape.value) ? shape.value.indexOf(Number(params.value)) : -1;
              return shape.texts[position] ?? String(params.value ?? "");
            },
          },
        })),
      },
    ],
  };
}

/** Gauge of the first metric's total between the widget's min and max values. */
export function gaugeChartOption({ widget, current, colours, compact }: ChartInput): ChartOption {
  const column = visibleMetrics(current, widget)[0];
  const defaults = DEFAULT_FORMAT_OPTIONS["chart:gauge"];
  const min = widget.formatOptions.minValue ?? defaults.minValue ?? 0;
  const rawMax = widget.formatOptions.maxValue ?? defaults.maxValue ?? 100;
  const max = rawMax > min ? rawMax : min + 1;
  const value = column ? current.totals[column.index] : null;
  const shown = value === null ? min : Math.min(Math.max(value, min), max);
  return {
    animationDuration: 600,
    textStyle: { fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif" },
    series: [
      {
        type: "gauge",
        min,
        max,
        startAngle: 205,
        endAngle: -25,
        radius: "96%",
        center: ["50%", "60%"],
        progress: { show: true, width: compact ? 12 : 16, roundCap: true, itemStyle: { color: colours.palette[0] } },
        axisLine: { roundCap: true, lineStyle: { width: compact ? 12 : 16, color: [[1, colours.line]] } },
        pointer: { show: false },
        axisTick: { show: false },
        splitLine: { show: false },
        axisLabel: {
          show: !compact,
          distance: compact ? 14 : 22,
          color: colours.muted,
          fontSize: 10,
          formatter: (tick: number) => (tick === min || tick === max ? formatAxisValue(tick, column?.metric) : ""),
        },
        anchor: { show: false },
        title: { show: true, offsetCenter: [0, "34%"], color: colours.muted, fontSize: 12 },
        detail: {
          valueAnimation: false,
          offsetCenter: [0, "0%"],
          fontSize: compact ? 20 : 26,
          fontWeight: 650,
          color: colours.text,
          formatter: () => (column ? formatMetric(value, column.metric) : "N/A"),
        },
        data: [{ value: shown, name: column ? label(column.metric, compact) : "" }],
      },
    ],
  };
}
