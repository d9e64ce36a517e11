import {
  DEFAULT_FORMAT_OPTIONS,
  notAvailableIn,
  PREVIOUS_PERIOD_LABEL,
  type TInteractiveWidget,
  type TTable,
  type TTableMetric,
} from "@app/core";
import { formatAxisValue, formatDimension, formatMetric, visibleMetrics } from "../data/view-model";
import {
  type ChartInput,
  ENGLISH_CHART_WORDS,
  escapeHtml,
  label,
  legend,
  MAX_SLICES,
  tooltipBase,
  withAlpha,
} from "./chart-common";
import type { ChartOption } from "./chart-types";
import { radarData } from "./radar-data";

interface Slice {
  name: string;
  value: number | null;
}

function pieSlices(
  current: TTable,
  widget: TInteractiveWidget,
  compact: boolean,
  locale: string,
  other: string,
): { slices: Slice[]; metric?: TTableMetric } {
  const columns = visibleMetrics(current, widget);
  if (current.dimension && columns[0]) {
    const column = columns[0];
    const rows = [...current.rows].sort((a, b) => (b.values[column.index] ?? 0) - (a.values[column.index] ?? 0));
    const top = rows.slice(0, MAX_SLICES - 1);
    const rest = rows.slice(MAX_SLICES - 1);
    const slices = top.map((row) => ({
      name: formatDimension(row.dimension, current, false, locale),
      value: row.values[column.index],
    }));
    if (rest.length > 0) {
      slices.push({ name: other, value: rest.reduce((sum, row) => sum + (row.values[column.index] ?? 0), 0) });
    }
    return { slices, metric: column.metric };
  }
  return {
    slices: columns.map((column) => ({ name: label(column.metric, compact), value: current.totals[column.index] })),
    metric: columns[0]?.metric,
  };
}

/** Pie chart of the first metric over the dimension (or of the metric totals); doughnut option. */
export function pieChartOption({
  widget,
  current,
  colours,
  compact,
  locale = "en-US",
  words = ENGLISH_CHART_WORDS,
}: ChartInput): ChartOption {
  const { slices, metric } = pieSlices(current, widget, compact, locale, words.other);
  const doughnut = widget.formatOptions.doughnut ?? DEFAULT_FORMAT_OPTIONS["chart:pie"].doughnut;
  const format = (value: unknown) =>
    metric ? formatMetric(typeof value === "number" ? value : null, metric, locale) : "";
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

/** Spoke names longer than this are cut: long page paths would push the radar off the card. */
const SPOKE_NAME_LENGTH = 18;

/**
 * Radar chart: over a dimension one spoke per value and one polygon per metric and period; without
 * one, one spoke per metric (see radarData). The legend sits below the radar so they never overlap.
 */
export function radarChartOption({
  widget,
  current,
  previous,
  colours,
  compact,
  comparison = PREVIOUS_PERIOD_LABEL,
  locale = "en-US",
  words = ENGLISH_CHART_WORDS,
}: ChartInput): ChartOption {
  const columns = visibleMetrics(current, widget);
  const visibleLabels = widget.formatOptions.visibleLabels ?? DEFAULT_FORMAT_OPTIONS["chart:radar"].visibleLabels;
  const { spokes, polygons } = radarData(current, previous, columns, {
    compact,
    comparison,
    locale,
    currentPeriod: words.currentPeriod,
  });
  const withLegend = polygons.length > 1;
  // Each metric keeps its palette colour in both periods; the comparison is the dashed, paler twin.
  let metricPosition = -1;
  const colourOf = polygons.map((polygon) => {
    if (!polygon.previous) metricPosition += 1;
    return colours.palette[Math.max(0, metricPosition) % colours.palette.length];
  });
  const spokeNames = spokes.map((spoke) => spoke.name);

  return {
    color: [...colours.palette],
    animationDuration: 450,
    textStyle: { fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif" },
    legend: {
      ...(legend(
        polygons.map((polygon) => polygon.name),
        colours,
        compact,
      ) as object),
      // Wrapped onto a second line rather than paged: every polygon stays named.
      type: "plain",
      top: "auto",
      bottom: 0,
      left: "center",
    },
    tooltip: {
      ...tooltipBase(colours),
      trigger: "item",
      formatter: (params: unknown) => {
        const { dataIndex = 0 } = params as { dataIndex?: number };
        const polygon = polygons[dataIndex];
        if (!polygon) return "";
        const lines = spokeNames.map(
          (name, index) => `${escapeHtml(name)}: <b>${escapeHtml(polygon.texts[index])}</b>`,
        );
        return [`<b>${escapeHtml(polygon.name)}</b>`, ...lines].join("<br/>");
      },
    },
    radar: {
      indicator: spokes,
      // Room below for a legend of up to two lines, and around for the spoke names.
      radius: withLegend && polygons.length > 2 ? (compact ? "50%" : "56%") : compact ? "56%" : "62%",
      center: ["50%", withLegend ? (polygons.length > 2 ? "43%" : "46%") : "52%"],
      axisName: {
        color: colours.muted,
        fontSize: 11,
        formatter: (name?: string) =>
          name && name.length > SPOKE_NAME_LENGTH ? `${name.slice(0, SPOKE_NAME_LENGTH - 1)}…` : (name ?? ""),
      },
      splitLine: { lineStyle: { color: colours.line } },
      splitArea: { show: false },
      axisLine: { lineStyle: { color: colours.line } },
    },
    series: [
      {
        type: "radar",
        symbolSize: 5,
        data: polygons.map((polygon, index) => ({
          name: polygon.name,
          value: polygon.values,
          itemStyle: { color: polygon.previous ? withAlpha(colourOf[index], 0.6) : colourOf[index] },
          lineStyle: {
            width: polygon.previous ? 1.5 : 2,
            type: polygon.previous ? "dashed" : "solid",
            color: polygon.previous ? withAlpha(colourOf[index], 0.6) : colourOf[index],
          },
          areaStyle: { color: colourOf[index], opacity: polygon.previous ? 0.04 : 0.14 },
          label: {
            // Only the first polygon is labelled: several sets of numbers on one spoke collide.
            show: visibleLabels && index === 0,
            color: colours.text,
            fontSize: 10,
            formatter: (params: { value?: unknown }) => {
              const position = polygon.values.indexOf(Number(params.value));
              return polygon.texts[position] ?? "";
            },
          },
        })),
      },
    ],
  };
}

/** Width of a character of the gauge's texts, as a share of their font size. */
const GAUGE_CHAR_WIDTH = 0.7;
/** Below this arc radius (px) the scale's min and max labels would reach the value: they are left out. */
const GAUGE_LABELS_MIN_RADIUS = 80;

/**
 * Gauge of the first metric's total between the widget's min and max values. The value and the metric's
 * name are one two-line text block under the centre, so they can never be drawn over each other; when the
 * chart's size is known both are sized to fit inside the arc, so '44.92%' is drawn whole in any card.
 */
export function gaugeChartOption({
  widget,
  current,
  colours,
  compact,
  size,
  targets = [],
  locale = "en-US",
}: ChartInput): ChartOption {
  const column = visibleMetrics(current, widget)[0];
  const defaults = DEFAULT_FORMAT_OPTIONS["chart:gauge"];
  const min = widget.formatOptions.minValue ?? defaults.minValue ?? 0;
  const rawMax = widget.formatOptions.maxValue ?? defaults.maxValue ?? 100;
  const max = rawMax > min ? rawMax : min + 1;
  const value = column ? current.totals[column.index] : null;
  const shown = value === null ? min : Math.min(Math.max(value, min), max);
  const text = column ? formatMetric(value, column.metric, locale) : notAvailableIn(locale);
  const arcWidth = compact ? 10 : 14;
  const radiusShare = 0.92;
  // The arc's radius in pixels (ECharts reads '92%' of half the shorter side) and the width inside it.
  const radius = size ? (radiusShare * Math.min(size.width, size.height)) / 2 : null;
  // The value sits a little under the centre, where the arc's ends come in: keep clear of them.
  const inside = radius ? Math.max(40, 2 * (radius - arcWidth) * 0.8) : null;
  const base = compact ? 22 : 26;
  const fit = (length: number, largest: number, smallest: number) =>
    inside
      ? Math.max(smallest, Math.min(largest, Math.floor(inside / (Math.max(length, 1) * GAUGE_CHAR_WIDTH))))
      : largest;
  const valueSize = fit(text.length, base, 11);
  let name = column ? label(column.metric, compact) : "";
  let nameSize = fit(name.length, compact ? 11 : 12, 9);
  if (column && inside && name.length * nameSize * GAUGE_CHAR_WIDTH > inside) {
    name = label(column.metric, true);
    nameSize = fit(name.length, compact ? 11 : 12, 9);
  }
  const showScale = !compact && (radius === null || radius >= GAUGE_LABELS_MIN_RADIUS);
  // The arc's scale and place, shared by the goal's notch so it stands on the arc at its target.
  const arc = {
    type: "gauge" as const,
    min,
    max,
    startAngle: 205,
    endAngle: -25,
    radius: `${radiusShare * 100}%`,
    center: ["50%", "58%"],
  };
  return {
    animationDuration: 600,
    textStyle: { fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif" },
    series: [
      {
        ...arc,
        progress: { show: true, width: arcWidth, roundCap: true, itemStyle: { color: colours.palette[0] } },
        axisLine: { roundCap: true, lineStyle: { width: arcWidth, color: [[1, colours.line]] } },
        pointer: { show: false },
        axisTick: { show: false },
        splitLine: { show: false },
        axisLabel: {
          show: showScale,
          distance: 20,
          color: colours.muted,
          fontSize: 10,
          formatter: (tick: number) =>
            tick === min || tick === max ? formatAxisValue(tick, column?.metric, locale) : "",
        },
        anchor: { show: false },
        title: { show: false },
        detail: {
          valueAnimation: false,
          offsetCenter: [0, "8%"],
          // No fixed box: the default 100 px width cut long values.
          width: Math.ceil(Math.max(text.length * valueSize, name.length * nameSize) * GAUGE_CHAR_WIDTH) + 8,
          overflow: "none",
          padding: 0,
          lineHeight: valueSize + 4,
          formatter: () =>
            name ? `{value|${escapeRich(text)}}\n{name|${escapeRich(name)}}` : `{value|${escapeRich(text)}}`,
          rich: {
            value: {
              fontSize: valueSize,
              fontWeight: 650,
              color: colours.text,
              lineHeight: valueSize + 6,
              align: "center",
            },
            name: { fontSize: nameSize, color: colours.muted, lineHeight: nameSize + 6, align: "center" },
          },
        },
        data: [{ value: shown, name }],
      },
      // The goal: a notch across the arc at the target (its words are under the gauge, goals/GoalLines.tsx).
      ...targets
        .filter((target) => target.metricKey === column?.metric.key)
        .slice(0, 1)
        .map((target) => ({
          ...arc,
          silent: true,
          progress: { show: false },
          axisLine: { show: false },
          axisTick: { show: false },
          splitLine: { show: false },
          axisLabel: { show: false },
          anchor: { show: false },
          title: { show: false },
          detail: { show: false },
          pointer: {
            show: true,
            icon: "rect",
            width: 3,
            length: arcWidth + 8,
            // From 4 px inside the arc to 4 px outside it (the offset is a share of the arc's radius).
            offsetCenter: [0, `${-100 + ((arcWidth + 4) / (radius ?? 100)) * 100}%`],
            itemStyle: { color: colours.text },
          },
          data: [{ value: Math.min(Math.max(target.value, min), max), name: target.label }],
        })),
    ],
  };
}

/** Rich-text markup characters in a value or name would be read as style tags. */
function escapeRich(text: string): string {
  return text.replace(/[{}|]/g, " ");
}
