import { PREVIOUS_PERIOD_LABEL, type TTable } from "@app/core";
import { compareRows, formatDimension, formatMetric, type MetricColumn } from "../data/view-model";
import { label, MAX_SLICES } from "./chart-common";

export interface RadarSpoke {
  name: string;
  max: number;
}

export interface RadarPolygon {
  name: string;
  /** Plotted values, one per spoke (shares of the metric's largest value when several metrics share spokes). */
  values: number[];
  /** The real values as text, one per spoke, for labels and the tooltip. */
  texts: string[];
  /** True for the comparison period (drawn dashed). */
  previous: boolean;
}

export interface RadarData {
  spokes: RadarSpoke[];
  polygons: RadarPolygon[];
}

/**
 * What a radar chart draws. Over a dimension: one spoke per dimension value (the largest MAX_SLICES by
 * the first metric) and one polygon per metric and period; several metrics are each scaled to their own
 * largest value, since sessions and conversions on one scale would leave the small one a dot in the
 * middle. Without a dimension: one spoke per metric (each scaled to itself) and one polygon per period.
 */
export function radarData(
  current: TTable,
  previous: TTable | null,
  columns: readonly MetricColumn[],
  options: { compact: boolean; comparison: string; locale?: string; currentPeriod?: string },
): RadarData {
  // Beside a metric's name the default comparison is just 'previous'; a custom one keeps its days.
  const compared = options.comparison === PREVIOUS_PERIOD_LABEL ? "previous" : options.comparison;
  const comparedName = (name: string) => `${name} (${compared})`;
  const locale = options.locale ?? "en-US";
  const currentPeriod = options.currentPeriod ?? "Current period";
  if (current.dimension && columns.length > 0) {
    const first = columns[0];
    const rows = compareRows(current, previous)
      .sort((a, b) => (b.values[first.index] ?? 0) - (a.values[first.index] ?? 0))
      .slice(0, MAX_SLICES);
    const several = columns.length > 1;
    const valuesOf = (column: MetricColumn, period: "current" | "previous") =>
      rows.map((row) => (period === "current" ? row.values[column.index] : row.previous?.[column.index]) ?? null);
    const largest = (column: MetricColumn) =>
      Math.max(
        0,
        ...[...valuesOf(column, "current"), ...(previous ? valuesOf(column, "previous") : [])].map((value) =>
          value !== null && Number.isFinite(value) ? Math.abs(value) : 0,
        ),
      );
    const overall = Math.max(1e-9, ...columns.map(largest));
    const polygons: RadarPolygon[] = [];
    for (const column of columns) {
      const scale = several ? Math.max(1e-9, largest(column)) : 1;
      const name = label(column.metric, options.compact);
      for (const period of previous ? (["current", "previous"] as const) : (["current"] as const)) {
        const values = valuesOf(column, period);
        const single = !several && previous;
        polygons.push({
          name:
            period === "current" ? (single ? currentPeriod : name) : single ? options.comparison : comparedName(name),
          values: values.map((value) => (value !== null && Number.isFinite(value) ? value / scale : 0)),
          texts: values.map((value) => formatMetric(value, column.metric, locale)),
          previous: period === "previous",
        });
      }
    }
    const max = several ? 1.1 : overall * 1.1;
    return {
      spokes: rows.map((row) => ({ name: formatDimension(row.dimension, current, false, locale), max })),
      polygons,
    };
  }
  const spokes = columns.slice(0, MAX_SLICES);
  const polygons: RadarPolygon[] = [
    {
      name: currentPeriod,
      values: spokes.map((column) => current.totals[column.index] ?? 0),
      texts: spokes.map((column) => formatMetric(current.totals[column.index], column.metric, locale)),
      previous: false,
    },
  ];
  if (previous) {
    polygons.push({
      name: options.comparison,
      values: spokes.map((column) => previous.totals[column.index] ?? 0),
      texts: spokes.map((column) => formatMetric(previous.totals[column.index], column.metric, locale)),
      previous: true,
    });
  }
  return {
    spokes: spokes.map((column) => ({
      name: label(column.metric, true),
      max:
        Math.max(1e-9, Math.abs(current.totals[column.index] ?? 0), Math.abs(previous?.totals[column.index] ?? 0)) *
        1.15,
    })),
    polygons,
  };
}
