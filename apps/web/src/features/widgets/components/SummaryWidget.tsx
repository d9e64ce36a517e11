import { abbreviateMetricName, type TInteractiveWidget, type TTable } from "@app/core";
import { Box, Text } from "@mantine/core";
import { changeOf, formatMetric, visibleMetrics } from "../data/view-model";
import { ChangeText } from "./ChangeText";

interface Props {
  widget: TInteractiveWidget;
  current: TTable;
  previous: TTable | null;
  compact: boolean;
}

/** Summary format: one big number per metric with its change against the comparison period. */
export function SummaryWidget({ widget, current, previous, compact }: Props) {
  const columns = visibleMetrics(current, widget);
  const showChange = previous !== null && !widget.hiddenChange;
  return (
    <Box className="dash-summary" data-count={Math.min(columns.length, 6)}>
      {columns.map((column) => (
        <Box key={column.metric.key} className="dash-kpi">
          <Text className="dash-kpi-label" title={column.metric.label}>
            {compact && columns.length > 2 ? abbreviateMetricName(column.metric.label) : column.metric.label}
          </Text>
          <Text className="dash-kpi-value">{formatMetric(current.totals[column.index], column.metric)}</Text>
          {showChange && !column.option?.cloakedChange ? (
            <Box className="dash-kpi-change">
              <ChangeText
                change={changeOf(current.totals[column.index], previous?.totals[column.index])}
                highlight={!widget.hiddenHighlight}
              />
              <Text component="span" className="dash-kpi-previous">
                vs {formatMetric(previous?.totals[column.index], column.metric)}
              </Text>
            </Box>
          ) : null}
        </Box>
      ))}
    </Box>
  );
}
