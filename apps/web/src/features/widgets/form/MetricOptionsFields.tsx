import {
  CHART_SERIES_FORMATS,
  type TMetricOption,
  type TOption,
  WIDGET_FORMAT_LABELS,
  type WidgetFormat,
} from "@app/core";
import { Checkbox, Group, Stack, Table, Text } from "@mantine/core";
import { SelectInput } from "../../../ui/SelectInput";

interface Props {
  metrics: TOption[];
  format: WidgetFormat;
  options: Record<string, TMetricOption>;
  onChange: (options: Record<string, TMetricOption>) => void;
}

const EMPTY: TMetricOption = { format: null, cloaked: false, cloakedChange: false };

/** Per-metric options (docs/product.md §3): a series format inside line/area/bar charts, hide value, hide change. */
export function MetricOptionsFields({ metrics, format, options, onChange }: Props) {
  const series = (CHART_SERIES_FORMATS as readonly string[]).includes(format);
  const set = (key: string, patch: Partial<TMetricOption>) =>
    onChange({ ...options, [key]: { ...EMPTY, ...options[key], ...patch } });
  if (metrics.length === 0) {
    return (
      <Text fz="sm" c="dimmed">
        Choose metrics first.
      </Text>
    );
  }
  return (
    <Table withRowBorders={false} verticalSpacing={6} horizontalSpacing="xs">
      <Table.Tbody>
        {metrics.map((metric) => {
          const option = { ...EMPTY, ...options[metric.value] };
          return (
            <Table.Tr key={metric.value}>
              <Table.Td>
                <Text fz="sm" fw={500}>
                  {metric.label}
                </Text>
              </Table.Td>
              <Table.Td>
                <Stack gap={6}>
                  {series ? (
                    <SelectInput
                      size="xs"
                      aria-label={`${metric.label} series`}
                      searchable={false}
                      clearable
                      allowDeselect
                      placeholder="Same as widget"
                      data={CHART_SERIES_FORMATS.map((item) => ({ value: item, label: WIDGET_FORMAT_LABELS[item] }))}
                      value={option.format}
                      onChange={(next) => set(metric.value, { format: (next as WidgetFormat | null) ?? null })}
                    />
                  ) : null}
                  <Group gap="md">
                    <Checkbox
                      size="xs"
                      label="Hide value"
                      aria-label={`Hide ${metric.label}`}
                      checked={option.cloaked}
                      onChange={(event) => set(metric.value, { cloaked: event.currentTarget.checked })}
                    />
                    <Checkbox
                      size="xs"
                      label="Hide change"
                      aria-label={`Hide change of ${metric.label}`}
                      checked={option.cloakedChange}
                      onChange={(event) => set(metric.value, { cloakedChange: event.currentTarget.checked })}
                    />
                  </Group>
                </Stack>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
