import {
  CHART_SERIES_FORMATS,
  DEFAULT_FORMAT_OPTIONS,
  PREVIOUS_PERIOD_LABEL,
  resolveOrderBy,
  type TTableMetric,
  tableColumns,
} from "@app/core";
import {
  changeOf,
  compareRows,
  formatAxisValue,
  formatDimension,
  formatMetric,
  type MetricColumn,
  sortRows,
  visibleMetrics,
} from "../data/view-model";
import { categoryLabels } from "./category-labels";
import {
  type ChartInput,
  changeHtml,
  ENGLISH_CHART_WORDS,
  escapeHtml,
  label,
  legend,
  MAX_COMPARED_BARS,
  tooltipBase,
  withAlpha,
} from "./chart-common";
import type { BarSeriesOption, ChartOption, LineSeriesOption } from "./chart-types";
import { rightAxisSeries } from "./value-axes";

interface AxisTooltipItem {
  seriesName?: string;
  marker?: unknown;
  value?: unknown;
  dataIndex?: number;
  axisValueLabel?: string;
}

/** Axis tooltip: the category, then each series with its value and (current period) coloured change. */
function axisTooltip(lines: ReadonlyMap<string, (dataIndex: number, value: unknown) => string>) {
  return (params: unknown) => {
    const items = (Array.isArray(params) ? params : [params]) as AxisTooltipItem[];
    const head = `<div style="font-weight:600;margin-bottom:4px">${escapeHtml(items[0]?.axisValueLabel ?? "")}</div>`;
    const body = items.map((item) => {
      const name = item.seriesName ?? "";
      const line = lines.get(name)?.(item.dataIndex ?? 0, item.value) ?? escapeHtml(String(item.value ?? ""));
      const marker = typeof item.marker === "string" ? item.marker : "";
      return `<div style="display:flex;gap:12px;justify-content:space-between"><span>${marker}${escapeHtml(name)}</span><span style="font-weight:600">${line}</span></div>`;
    });
    return head + body.join("");
  };
}

function seriesKind(widgetFormat: string, column: MetricColumn): "line" | "area" | "bar" {
  const own = column.option?.format;
  const chosen = own && (CHART_SERIES_FORMATS as readonly string[]).includes(own) ? own : widgetFormat;
  if (chosen === "chart:bar") return "bar";
  if (chosen === "chart:area") return "area";
  return "line";
}

/** Line, area and bar charts: one series per metric over the dimension, the comparison period dashed. */
export function seriesChartOption({
  widget,
  current,
  previous,
  colours,
  compact,
  short,
  comparison = PREVIOUS_PERIOD_LABEL,
  locale = "en-US",
  targets = [],
  words = ENGLISH_CHART_WORDS,
}: ChartInput): ChartOption {
  const columns = visibleMetrics(current, widget);
  const visibleGrid = widget.formatOptions.visibleGrid ?? DEFAULT_FORMAT_OPTIONS["chart:line"].visibleGrid;
  const axes = new Map<number, number>();
  const names: string[] = [];
  const series: Array<LineSeriesOption | BarSeriesOption> = [];
  // Dashed / pale series of the comparison period, named in the tooltip after their metric.
  const comparedSeries = new Set<string>();
  const comparedName = comparison === PREVIOUS_PERIOD_LABEL ? "previous" : comparison;
  // The tooltip line of each series by name: its value and, for current series, the change.
  const tooltipLines = new Map<string, (dataIndex: number, value: unknown) => string>();
  let categories: string[];

  if (current.dimension) {
    let rows = compareRows(current, previous);
    if (current.dimension.kind !== "date") {
      rows = sortRows(rows, resolveOrderBy(widget.orderBy, tableColumns(current)), current).slice(0, widget.rowsLimit);
    }
    const right = rightAxisSeries(
      columns.map((column) => ({
        key: column.metric.key,
        format: column.metric.format,
        values: rows.flatMap((row) => [row.values[column.index], row.previous?.[column.index]]),
      })),
    );
    for (const column of columns) axes.set(column.index, right.has(column.metric.key) ? 1 : 0);
    categories = rows.map((row) => formatDimension(row.dimension, current, false, locale));
    columns.forEach((column, position) => {
      const colour = colours.palette[position % colours.palette.length];
      const kind = seriesKind(widget.format, column);
      const name = label(column.metric, compact);
      const formatter = (value: unknown) =>
        formatMetric(typeof value === "number" ? value : null, column.metric, locale);
      const yAxisIndex = axes.get(column.index) ?? 0;
      names.push(name);
      const showChange = previous !== null && !widget.hiddenChange && !column.option?.cloakedChange;
      tooltipLines.set(name, (dataIndex, value) => {
        const row = rows[dataIndex];
        const change = showChange && row ? changeOf(row.values[column.index], row.previous?.[column.index]) : undefined;
        return `${escapeHtml(formatter(value))}${
          change === undefined
            ? ""
            : ` ${changeHtml(change, column.metric.lowerIsBetter, !widget.hiddenHighlight, locale)}`
        }`;
      });
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
        // Dashed comparison series stay out of the legend: the tooltip names them.
        const previousName = `${name} (${comparedName})`;
        comparedSeries.add(previousName);
        tooltipLines.set(previousName, (_dataIndex, value) => escapeHtml(formatter(value)));
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
    // A goal over days is a dashed line at its daily share, named on the chart itself (its end label and
    // the legend), so a screenshot or the PDF says what the line is without the tooltip.
    if (current.dimension.kind === "date") {
      for (const target of targets) {
        const column = columns.find((candidate) => candidate.metric.key === target.metricKey);
        if (!column) continue;
        const name = target.label;
        const formatter = (value: unknown) =>
          formatMetric(typeof value === "number" ? value : null, column.metric, locale);
        names.push(name);
        tooltipLines.set(name, (_dataIndex, value) => escapeHtml(formatter(value)));
        series.push({
          type: "line",
          name,
          yAxisIndex: axes.get(column.index) ?? 0,
          data: rows.map(() => target.value),
          showSymbol: false,
          symbol: "none",
          lineStyle: { width: 1.5, type: [6, 4], color: colours.text },
          itemStyle: { color: colours.text },
          endLabel: {
            show: !compact,
            formatter: name,
            color: colours.text,
            fontSize: 11,
            offset: [-4, -10],
            align: "right",
          },
          emphasis: { disabled: true },
          z: 1,
          tooltip: { valueFormatter: formatter },
        });
      }
    }
  } else {
    // No dimension: one bar per metric, the comparison period beside it.
    categories = columns.map((column) => label(column.metric, true));
    const name = words.currentPeriod;
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
      tooltip: { valueFormatter: (value) => formatAxisValue(Number(value), columns[0]?.metric, locale) },
    });
    if (previous) {
      series.push({
        type: "bar",
        name: comparison,
        data: columns.map((column) => previous.totals[column.index] ?? null),
        itemStyle: { color: withAlpha(colours.palette[0], 0.3), borderRadius: [3, 3, 0, 0] },
        barMaxWidth: 36,
      });
    }
  }

  const axisColumn = [0, 1].map((axis) => columns.find((column) => axes.get(column.index) === axis));
  const axisMetric = axisColumn.map((column) => column?.metric);
  const twoAxes = Boolean(axisMetric[1]);
  // With two axes each one's numbers take the colour of its first series, so a reader knows which is which.
  const axisColour = axisColumn.map((column) =>
    twoAxes && column ? colours.palette[columns.indexOf(column) % colours.palette.length] : colours.muted,
  );

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
      color: axisColour[index],
      fontSize: 11,
      hideOverlap: true,
      formatter: (value: number) => formatAxisValue(value, metric, locale),
    },
    splitLine: { show: visibleGrid && index === 0, lineStyle: { color: colours.line, type: "dashed" as const } },
    axisLine: { show: false },
    axisTick: { show: false },
  });
  // Under a vertical chart by country, campaign or page every bar is named (turned and cut short when the
  // names do not fit); dates keep ECharts' spacing, which skips days evenly.
  const named =
    !horizontal && current.dimension !== null && current.dimension.kind !== "date"
      ? categoryLabels({
          names: categories,
          columns: widget.width,
          rows: widget.height,
          compact,
          valueAxes: twoAxes ? 2 : 1,
        })
      : null;
  const categoryAxis = {
    type: "category" as const,
    data: categories,
    // Bars by country or campaign read top-down, largest first, with room for their names.
    inverse: horizontal,
    boundaryGap: series.some((item) => item.type === "bar"),
    axisLabel: {
      color: colours.muted,
      fontSize: 11,
      hideOverlap: named === null,
      ...(named && { interval: named.interval, rotate: named.rotate }),
      width: horizontal ? (compact ? 80 : 140) : named?.width,
      overflow: horizontal || named ? ("truncate" as const) : undefined,
    },
    axisLine: { lineStyle: { color: colours.line } },
    axisTick: { show: false },
    splitLine: { show: false },
  };
  const legendNames = names.length > 1 ? names : [];
  // The dashed / pale series are the comparison period; a key says so on the chart itself, so a
  // screenshot or PDF reads without the tooltip.
  const compared = series.some((item) => comparedSeries.has(String(item.name)));
  const previousKey = compared
    ? [
        {
          type: "text" as const,
          right: 8,
          top: legendNames.length > 0 ? 6 : 0,
          style: {
            text: `- - ${comparison === PREVIOUS_PERIOD_LABEL ? "previous period" : comparison}`,
            fill: colours.muted,
            fontSize: 10,
          },
        },
      ]
    : [];

  return {
    color: [...colours.palette],
    animationDuration: 450,
    textStyle: { fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif" },
    legend: legend(legendNames, colours, compact),
    graphic: previousKey,
    tooltip: {
      ...tooltipBase(colours),
      trigger: "axis",
      axisPointer: { type: current.dimension && !horizontal ? "line" : "shadow" },
      ...(tooltipLines.size > 0 ? { formatter: axisTooltip(tooltipLines) } : {}),
    },
    grid: {
      left: 4,
      right: axisMetric[1] ? 4 : 12,
      top: legendNames.length > 0 ? (compact ? 44 : 32) : compared ? 22 : 12,
      bottom: 4,
      // Axis labels inside the grid's rect (ECharts 6's form of the old `containLabel`, which now needs a
      // legacy module and only warns without it).
      outerBoundsMode: "same",
      outerBoundsContain: "axisLabel",
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
