import { resolveOrderBy, type TInteractiveWidget, type TTable, tableColumns } from "@app/core";
import { Box } from "@mantine/core";
import { useI18n } from "../../../lib/i18n";
import { changeOf, compareRows, formatDimension, formatMetric, sortRows, visibleMetrics } from "../data/view-model";
import { ChangeText } from "./ChangeText";

interface Props {
  widget: TInteractiveWidget;
  current: TTable;
  previous: TTable | null;
  /** A narrow card, once measured (before, the card body's container query makes it compact in CSS). */
  compact: boolean;
  /** One grid row high: tighter rows with changes beside their values. */
  short?: boolean;
}

/**
 * Table format: the dimension and the metric columns, ordered by the widget's orderBy (falling back to
 * the dimension ascending when the column is gone, docs/product.md §5), cut at rowsLimit, with a totals row. Each
 * value carries its change against the comparison period unless the widget hides changes.
 */
export function TableWidget({ widget, current, previous, compact, short = false }: Props) {
  const { t, locale } = useI18n();
  const columns = visibleMetrics(current, widget);
  const orderBy = resolveOrderBy(widget.orderBy, tableColumns(current));
  const rows = sortRows(compareRows(current, previous), orderBy, current).slice(0, widget.rowsLimit);
  const showChange = previous !== null && !widget.hiddenChange;
  const highlight = !widget.hiddenHighlight;
  const sortedBy = (key: string) =>
    orderBy.column === key ? (orderBy.dir === "asc" ? ("ascending" as const) : ("descending" as const)) : undefined;

  return (
    // A table wider or taller than its card scrolls; keyboard users reach it by Tab (WCAG 2.1.1).
    <Box
      className="dash-table-scroll"
      tabIndex={0}
      role="region"
      aria-label={t("widget.scrollable", { title: widget.title || t("widget.table") })}
    >
      <table className="dash-table" data-compact={compact || undefined} data-short={short || undefined}>
        <thead>
          <tr>
            {current.dimension ? (
              <th scope="col" aria-sort={sortedBy("dimension")}>
                {current.dimension.label}
              </th>
            ) : null}
            {columns.map((column) => (
              <th key={column.metric.key} scope="col" className="dash-num" aria-sort={sortedBy(column.metric.key)}>
                {column.metric.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {current.dimension
            ? rows.map((row) => (
                // Dimension values are unique within a table (the server groups by them).
                <tr key={row.dimension ?? ""}>
                  <th scope="row" className="dash-dim">
                    {formatDimension(row.dimension, current, true, locale)}
                  </th>
                  {columns.map((column) => (
                    <td key={column.metric.key} className="dash-num">
                      <span className="dash-value">
                        {formatMetric(row.values[column.index], column.metric, locale)}
                      </span>
                      {showChange && !column.option?.cloakedChange ? (
                        <ChangeText
                          className="dash-cell-change"
                          change={changeOf(row.values[column.index], row.previous?.[column.index])}
                          highlight={highlight}
                          lowerIsBetter={column.metric.lowerIsBetter}
                        />
                      ) : null}
                    </td>
                  ))}
                </tr>
              ))
            : null}
        </tbody>
        <tfoot>
          <tr>
            {current.dimension ? <th scope="row">{t("widget.total")}</th> : null}
            {columns.map((column) => (
              <td key={column.metric.key} className="dash-num">
                <span className="dash-value">{formatMetric(current.totals[column.index], column.metric, locale)}</span>
                {showChange && !column.option?.cloakedChange ? (
                  <ChangeText
                    className="dash-cell-change"
                    change={changeOf(current.totals[column.index], previous?.totals[column.index])}
                    highlight={highlight}
                    lowerIsBetter={column.metric.lowerIsBetter}
                  />
                ) : null}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </Box>
  );
}
