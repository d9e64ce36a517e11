import {
  abbreviateMetricName,
  CHART_SERIES_FORMATS,
  DEFAULT_FORMAT_OPTIONS,
  resolveOrderBy,
  type TInteractiveWidget,
  type TTable,
  type TTableMetric,
  tableColumns,
} from "@app/core";
import {
  compareRows,
  formatAxisValue,
  formatDimension,
  formatMetric,
  type MetricColumn,
  sortRows,
  visibleMetrics,
} from "../data/view-model";
import type { BarSeriesOption, ChartOption, LineSeriesOption } from "./chart-types";

/** Colours a chart is drawn with, taken from the dashboard's look. */
export interface ChartColours {
  palette: readonly string[];
  text: string;
  muted: string;
  line: string;
  surface: string;
}

export interface ChartInput {
  widget: TInteractiveWidget;
  current: TTable;
  previous: TTable | null;
  colours: ChartColours;
  /** Narrow card: abbreviated names (spec §9) and fewer decorations. */
  compact: boolean;
  /** Low card (one grid row): fewer axis ticks. */
  short?: boolean;
}

/** Most slices a pie or spokes a radar shows before the rest is summed as 'Other' or dropped. */
const MAX_SLICES = 8;
/** Most categories a bar chart draws the comparison period beside. */
const MAX_COMPARED_BARS = 12;

/** Names longer than this are abbreviated in narrow cards (spec §9); short ones read better whole. */
const LONG_NAME = 12;

function label(metric: TTableMetric, compact: boolean): string {
  return compact && metric.label.length > LONG_NAME ? abbreviateMetricName(metric.label) : metric.label;
}

function withAlpha(colour: string, alpha: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour);
  if (!hex) return colour;
  const value = Number.parseInt(hex[1], 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}

function tooltipBase(colours: ChartColours): ChartOption["tooltip"] {
  return {
    backgroundColor: colours.surface,
    borderColor: colours.line,
    textStyle: { color: colours.text, fontSize: 12 },
    extraCssText: "box-shadow: 0 6px 24px rgba(15, 23, 42, 0.14); border-radius: 8px;",
    confine: true,
  };
}

function legend(names: string[], colours: ChartColours, compact: boolean): ChartOption["legend"] {
  return {
    show: names.length > 1,
    // Narrow cards wrap the legend onto more lines rather than paging it.
    type: compact ? "plain" : "scroll",
    top: 0,
    left: 0,
    icon: "roundRect",
    itemWidth: 10,
    itemHeight: 10,
    itemGap: compact ? 8 : 16,
    textStyle: { color: colours.muted, fontSize: compact ? 11 : 12 },
    pageTextStyle: { color: colours.muted },
    data: names,
  };
}

/** Metrics of different kinds (money next to counts) get their own axis: at most two. */
function axisOf(columns: readonly MetricColumn[]): Map<number, number> {
  const formats: string[] = [];
  const result = new Map<number, number>();
  for (const column of columns) {
    if (!formats.includes(column.metric.format)) formats.push(column.metric.format);
    result.set(column.index, Math.min(formats.indexOf(column.metric.format), 1));
  }
  return result;
}

function seriesKind(widgetFormat: string, column: MetricColumn): "line" | "area" | "bar" {
  const own = column.option?.format;
  const chosen = own && (CHART_SERIES_FORMATS as readonly string[]).includes(own) ? own : widgetFormat;
  if (chosen === "chart:bar") return "bar";
  if (chosen === "chart:area") return "area";
  return "line";
}

/** Line, area and bar charts: one series per metric over the dimension, the comparison period dashed. */
export function seriesChartOption({ widget, current, previous, colours, compact, short }: ChartInput): ChartOption {
  const columns = visibleMetrics(current, widget);
  const visibleGrid = widget.formatOptions.visibleGrid ?? DEFAULT_FORMAT_OPTIONS["chart:line"].visibleGrid;
  const axes = axisOf(columns);
  const axisMetric = [0, 1].map((axis) => columns.find((column) => axes.get(column.index) === axis)?.metric);
  const names: string[] = [];
  const series: Array<LineSeriesOption | BarSeriesOption> = [];
  let categories: string[];

  if (current.dimension) {
    let rows = compareRows(current, previous);
    if (current.dimension.kind !== "date") {
      rows = sortRows(rows, resolveOrderBy(widget.orderBy, tableColumns(current)), current).slice(0, widget.rowsLimit);
    }
    categories = rows.map((row) => formatDimension(row.dimension, current));
    columns.forEach((column, position) => {
      const colour = colours.palette[position % colours.palette.length];
      const kind = seriesKind(widget.format, column);
      const name = label(column.metric, compact);
      const formatter = (value: unknown) => formatMetric(typeof value === "number" ? value : null, column.metric);
      const yAxisIndex = axes.get(column.index) ?? 0;
      names.push(name);
      series.push(
        kind === "bar"
          ? {
              type: "bar",
              name,
              yAxisIndex,
              data: rows.map((row) => row.values[column.index]),
              itemStyle: { color: colour, borderRadius: [3, 3, 0, 0] },
              barMaxWidth: 28,
              tooltip: { valueFormatter: formatter },
            }
          : {
              type: "line",
              name,
              yAxisIndex,
              data: rows.map((row) => row.values[column.index]),
              smooth: 0.25,
              showSymbol: rows.length <= 14,
              symbolSize: 6,
              lineStyle: { width: 2.25, color: colour },
              itemStyle: { color: colour },
              areaStyle:
                kind === "area"
                  ? {
                      color: {
                        type: "linear",
                        x: 0,
                        y: 0,
                        x2: 0,
                        y2: 1,
                        colorStops: [
                          { offset: 0, color: withAlpha(colour, 0.28) },
                          { offset: 1, color: withAlpha(colour, 0.02) },
                        ],
                      },
                    }
                  : undefined,
              tooltip: { valueFormatter: formatter },
            },
      );
      // Side-by-side previous bars crowd a long date axis; lines compare well at any length.
      if (previous && (kind !== "bar" || rows.length <= MAX_COMPARED_BARS)) {
        // Dashed "(previous)" series stay out of the legend: the tooltip names them.
        const previousName = `${name} (previous)`;
        const data = rows.map((row) => row.previous?.[column.index] ?? null);
        series.push(
          kind === "bar"
            ? {
                type: "bar",
                name: previousName,
                yAxisIndex,
                data,
                itemStyle: { color: withAlpha(colour, 0.32), borderRadius: [3, 3, 0, 0] },
                barMaxWidth: 28,
                tooltip: { valueFormatter: formatter },
              }
            : {
                type: "line",
                name: previousName,
                yAxisIndex,
                data,
                smooth: 0.25,
                showSymbol: false,
                lineStyle: { width: 1.75, type: "dashed", color: withAlpha(colour, 0.55) },
                itemStyle: { color: withAlpha(colour, 0.55) },
                tooltip: { valueFormatter: formatter },
              },
        );
      }
    });
  } else {
    // No dimension: one bar per metric, the comparison period beside it.
    categories = columns.map((column) => label(column.metric, true));
    const name = "Current period";
    names.push(name);
    series.push({
      type: "bar",
      name,
      data: columns.map((column, position) => ({
        value: current.totals[column.index],
        itemStyle: { color: colours.palette[position % colours.palette.length] },
      })),
      itemStyle: { borderRadius: [3, 3, 0, 0] },
      barMaxWidth: 36,
      tooltip: { valueFormatter: (value) => formatAxisValue(Number(value), columns[0]?.metric) },
    });
    if (previous) {
      series.push({
        type: "bar",
        name: "Previous period",
        data: columns.map((column) => previous.totals[column.index] ?? null),
        itemStyle: { color: withAlpha(colours.palette[0], 0.3), borderRadius: [3, 3, 0, 0] },
        barMaxWidth: 36,
      });
    }
  }

  const horizontal =
    current.dimension !== null &&
    current.dimension.kind !== "date" &&
    !axisMetric[1] &&
    series.length > 0 &&
    series.every((item) => item.type === "bar");

  const valueAxis = (metric: TTableMetric | undefined, show: boolean, index: number) => ({
    type: "value" as const,
    show,
    position: horizontal ? ("bottom" as const) : index === 0 ? ("left" as const) : ("right" as const),
    splitNumber: short ? 2 : horizontal && compact ? 3 : undefined,
    axisLabel: {
      color: colours.muted,
      fontSize: 11,
      hideOverlap: true,
      formatter: (value: number) => formatAxisValue(value, metric),
    },
    splitLine: { show: visibleGrid && index === 0, lineStyle: { color: colours.line, type: "dashed" as const } },
    axisLine: { show: false },
    axisTick: { show: false },
  });
  const categoryAxis = {
    type: "category" as const,
    data: categories,
    // Bars by country or campaign read top-down, largest first, with room for their names.
    inverse: horizontal,
    boundaryGap: series.some((item) => item.type === "bar"),
    axisLabel: {
      color: colours.muted,
      fontSize: 11,
      hideOverlap: true,
      width: horizontal ? (compact ? 80 : 140) : undefined,
      overflow: horizontal ? ("truncate" as const) : undefined,
    },
    axisLine: { lineStyle: { color: colours.line } },
    axisTick: { show: false },
    splitLine: { show: false },
  };
  const legendNames = names.length > 1 ? names : [];

  return {
    color: [...colours.palette],
    animationDuration: 450,
    textStyle: { fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif" },
    legend: legend(legendNames, colours, compact),
    tooltip: {
      ...tooltipBase(colours),
      trigger: "axis",
      axisPointer: { type: current.dimension && !horizontal ? "line" : "shadow" },
    },
    grid: {
      left: 4,
      right: axisMetric[1] ? 4 : 12,
      top: legendNames.length > 0 ? (compact ? 44 : 32) : 12,
      bottom: 4,
      containLabel: true,
    },
    xAxis: horizontal ? valueAxis(axisMetric[0], true, 0) : categoryAxis,
    yAxis: horizontal
      ? categoryAxis
      : [valueAxis(axisMetric[0], true, 0), valueAxis(axisMetric[1], Boolean(axisMetric[1]), 1)],
    series: horizontal
      ? series.map((item) => ({
          ...item,
          yAxisIndex: undefined,
          itemStyle: { ...item.itemStyle, borderRadius: [0, 3, 3, 0] },
        }))
      : series,
  } as ChartOption;
}

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

/** The chart option of a widget's chart format. */
export function chartOption(input: ChartInput): ChartOption {
  switch (input.widget.format) {
    case "chart:pie":
      return pieChartOption(input);
    case "chart:radar":
      return radarChartOption(input);
    case "chart:gauge":
      return gaugeChartOption(input);
    default:
      return seriesChartOption(input);
  }
}
