import { fitMetricName, type TInteractiveWidget, type TTable } from "@app/core";
import { Box, Text } from "@mantine/core";
import type { CSSProperties } from "react";
import { useI18n } from "../../../lib/i18n";
import { changeOf, formatMetric, visibleMetrics } from "../data/view-model";
import { ChangeText } from "./ChangeText";

interface Props {
  widget: TInteractiveWidget;
  current: TTable;
  previous: TTable | null;
  /** Width of the card body in pixels (0 before it is measured). */
  width: number;
}

/** Body width per tile of a row (.dash-summary's smallest tile and a gap) and the width a label letter takes. */
const TILE_MIN_WIDTH = 132;
const LETTER_WIDTH = 7;
const MIN_VALUE_PX = 16;
const MAX_VALUE_PX = 34;

/** docs/product.md §9: the whole name in two lines of its tile, shortened word by word only when it cannot be. */
function fittedLabel(label: string, tileWidth: number): string {
  return fitMetricName(label, tileWidth > 0 ? Math.floor(tileWidth / LETTER_WIDTH) : 0, 2);
}

/** Tiles per row of a summary of `count` figures in a body `width` wide (the placeholder uses it too). */
export function summaryPerRow(count: number, width: number): number {
  return Math.max(1, Math.min(count, Math.floor(width / TILE_MIN_WIDTH)));
}

/** Width of one tile's text in a body `width` wide with `perRow` tiles (0 before the body is measured). */
function tileWidthOf(width: number, perRow: number): number {
  // Body padding (32) and grid gaps (20) come off before the width is shared; each tile has 15 of its own.
  return width > 0 ? (width - 32 - (perRow - 1) * 20) / perRow - 15 : 0;
}

/**
 * One number size for every tile, large enough to read and small enough for the longest value
 * (`longest` characters) to fit; null before the body is measured.
 */
export function summaryValueFit(width: number, perRow: number, longest: number): number | null {
  const tileWidth = tileWidthOf(width, perRow);
  return tileWidth > 0
    ? Math.round(Math.max(MIN_VALUE_PX, Math.min(MAX_VALUE_PX, tileWidth / ((Math.max(4, longest) + 0.5) * 0.64))))
    : null;
}

/**
 * The grid's columns and number size for `count` figures, the longest `longest` characters, in a body
 * `width` wide; none before the body is measured (the server's page and the first render, which must
 * match it): .dash-summary's own columns and number size then fit the tiles to the body in CSS.
 */
export function summaryGridStyle(count: number, width: number, longest: number): CSSProperties | undefined {
  if (width <= 0) return undefined;
  const perRow = summaryPerRow(count, width);
  const fit = summaryValueFit(width, perRow, longest);
  return {
    gridTemplateColumns: `repeat(${perRow}, minmax(0, 1fr))`,
    ...(fit ? { "--kpi-fit": `${fit}px` } : {}),
  } as CSSProperties;
}

/** Summary format: one big number per metric with its change against the comparison period. */
export function SummaryWidget({ widget, current, previous, width }: Props) {
  const { locale, t } = useI18n();
  const columns = visibleMetrics(current, widget);
  // Before the body is measured labels stay whole (the CSS wraps them).
  const tileWidth = tileWidthOf(width, summaryPerRow(columns.length, width));
  const texts = columns.map((column) => formatMetric(current.totals[column.index], column.metric, locale));
  const showChange = previous !== null && !widget.hiddenChange;
  return (
    <Box
      className="dash-summary"
      data-count={Math.min(columns.length, 6)}
      style={summaryGridStyle(columns.length, width, Math.max(...texts.map((text) => text.length), 0))}
    >
      {columns.map((column, position) => (
        // A group named by the whole name: a shortened label still reads in full to assistive technology.
        <Box key={column.metric.key} className="dash-kpi" role="group" aria-label={column.metric.label}>
          <Text className="dash-kpi-label" title={column.metric.label}>
            {fittedLabel(column.metric.label, tileWidth)}
          </Text>
          <Text className="dash-kpi-value">{texts[position]}</Text>
          {showChange && !column.option?.cloakedChange ? (
            <Box className="dash-kpi-change">
              <ChangeText
                change={changeOf(current.totals[column.index], previous?.totals[column.index])}
                highlight={!widget.hiddenHighlight}
                lowerIsBetter={column.metric.lowerIsBetter}
              />
              <Text component="span" className="dash-kpi-previous">
                {t("range.versus", { period: formatMetric(previous?.totals[column.index], column.metric, locale) })}
              </Text>
            </Box>
          ) : null}
        </Box>
      ))}
    </Box>
  );
}
