import {
  changeTone,
  fitMetricName,
  notAvailableIn,
  type TInteractiveWidget,
  type TTable,
  type TTableMetric,
} from "@app/core";
import { formatChangeText } from "../data/view-model";
import type { ChartOption } from "./chart-types";

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
  /** Narrow card: abbreviated names (docs/product.md §9) and fewer decorations. */
  compact: boolean;
  /** Low card (one grid row): fewer axis ticks. */
  short?: boolean;
  /** Name of the comparison period in legends: 'Previous period' or a custom 'vs Oct 1 – Oct 14'. */
  comparison?: string;
  /** The chart's size in pixels when known (the gauge fits its texts inside its arc). */
  size?: { width: number; height: number };
  /** The dashboard's locale for numbers and days (lib/i18n.tsx); English when absent. */
  locale?: string;
  /** Goals drawn on the chart: a line across a chart over days, a marker on a gauge (goals/goal-view.ts). */
  targets?: ChartTarget[];
  /** The chart's own words in the dashboard's language (chartWords); English when absent. */
  words?: ChartWords;
}

/** What a chart says itself: a pie's slice of the rest, a radar's current period. */
export interface ChartWords {
  other: string;
  currentPeriod: string;
}

export const ENGLISH_CHART_WORDS: ChartWords = { other: "Other", currentPeriod: "Current period" };

/** A goal as a chart draws it: the metric's column key, where the mark goes and what it says. */
export interface ChartTarget {
  metricKey: string;
  /** In the chart's own units: a day's share of the goal on a chart over days, the goal itself on a gauge. */
  value: number;
  /** What the mark says on the chart, e.g. 'Target 2,258 a day'. */
  label: string;
  /** The goal is on pace (drawn in the good colour), off pace, or unknown (null). */
  onTrack: boolean | null;
}

/** Most slices a pie or spokes a radar shows before the rest is summed as 'Other' or dropped. */
export const MAX_SLICES = 8;
/** Most categories a bar chart draws the comparison period beside. */
export const MAX_COMPARED_BARS = 12;

/** Characters of a legend or axis name in narrow cards; longer names take known short forms (docs/product.md §9). */
const LONG_NAME = 12;

export function label(metric: TTableMetric, compact: boolean): string {
  return compact ? fitMetricName(metric.label, LONG_NAME, 1) : metric.label;
}

export function withAlpha(colour: string, alpha: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour);
  if (!hex) return colour;
  const value = Number.parseInt(hex[1], 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}

export function tooltipBase(colours: ChartColours): ChartOption["tooltip"] {
  return {
    backgroundColor: colours.surface,
    borderColor: colours.line,
    textStyle: { color: colours.text, fontSize: 12 },
    extraCssText: "box-shadow: 0 6px 24px rgba(15, 23, 42, 0.14); border-radius: 8px;",
    confine: true,
  };
}

export function legend(names: string[], colours: ChartColours, compact: boolean): ChartOption["legend"] {
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

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * A change in a chart tooltip as HTML, coloured like the cards' changes: green when good news, red
 * when bad (inversely for lower-is-better metrics). The tooltip is drawn inside the dashboard, so the
 * dashboard's own colour variables apply.
 */
export function changeHtml(
  change: number | null,
  lowerIsBetter: boolean | undefined,
  highlight: boolean,
  locale = "en-US",
): string {
  const known = change !== null && Number.isFinite(change);
  const tone = changeTone(change, lowerIsBetter ?? false);
  const colour =
    !highlight || tone === "flat" ? "var(--dash-muted)" : tone === "good" ? "var(--dash-up)" : "var(--dash-down)";
  const arrow = !known || change === 0 ? "" : (change as number) > 0 ? "▲ " : "▼ ";
  const text = known ? formatChangeText(Math.abs(change as number), locale).replace(/^\+/, "") : notAvailableIn(locale);
  return `<span data-tone="${tone}" style="color:${colour};font-size:11px">${arrow}${escapeHtml(text)}</span>`;
}
