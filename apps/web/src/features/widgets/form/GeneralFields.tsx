import {
  CHART_SERIES_FORMATS,
  DIMENSION_COLUMN,
  formatOptionsFor,
  type TFormatOptions,
  type TOption,
  WIDGET_FORMAT_LABELS,
  WIDGET_FORMATS,
  WIDGET_SIZES,
  type WidgetFormat,
  widgetSize,
  widgetSizeByName,
} from "@app/core";
import { NumberInput, SegmentedControl, SimpleGrid, Stack, Switch, Text, TextInput } from "@mantine/core";
import { NumberField } from "../../../ui/NumberField";
import { SelectInput } from "../../../ui/SelectInput";
import type { GeneralDraft } from "./draft";

interface Props {
  general: GeneralDraft;
  /** Formats the widget type offers (all when unknown). */
  formats: readonly WidgetFormat[] | null;
  /** Columns the widget can be ordered by: the dimension and the chosen metrics. */
  orderColumns: TOption[];
  onChange: (patch: Partial<GeneralDraft>) => void;
}

const isSeries = (format: WidgetFormat) => (CHART_SERIES_FORMATS as readonly string[]).includes(format);

/** Title, format and its options, size, ordering, rows limit and the change/percent switches. */
export function GeneralFields({ general, formats, orderColumns, onChange }: Props) {
  const available = formats && formats.length > 0 ? formats : WIDGET_FORMATS;
  const options = general.formatOptions;
  const setOption = (patch: TFormatOptions) =>
    onChange({ formatOptions: formatOptionsFor(general.format, { ...options, ...patch }) });
  const size = widgetSize(general.width, general.height);
  const orderable = general.format === "table" || isSeries(general.format);
  const orderValue = orderColumns.some((column) => column.value === general.orderBy.column)
    ? general.orderBy.column
    : DIMENSION_COLUMN;

  return (
    <Stack gap="sm">
      <TextInput
        label="Title"
        required
        maxLength={255}
        value={general.title}
        onChange={(event) => onChange({ title: event.currentTarget.value })}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <SelectInput
          label="Format"
          required
          searchable={false}
          data={available.map((format) => ({ value: format, label: WIDGET_FORMAT_LABELS[format] }))}
          value={general.format}
          onChange={(next) => {
            const format = (next ?? general.format) as WidgetFormat;
            onChange({ format, formatOptions: formatOptionsFor(format, options) });
          }}
        />
        <SelectInput
          label="Size"
          required
          searchable={false}
          data={WIDGET_SIZES.map((item) => ({ value: item.name, label: item.name }))}
          value={size?.name ?? null}
          onChange={(next) => {
            const picked = next ? widgetSizeByName(next) : null;
            if (picked) onChange({ width: picked.width, height: picked.height });
          }}
        />
      </SimpleGrid>

      {isSeries(general.format) ? (
        <Switch
          label="Visible grid"
          checked={options.visibleGrid ?? true}
          onChange={(event) => setOption({ visibleGrid: event.currentTarget.checked })}
        />
      ) : null}
      {general.format === "chart:pie" ? (
        <Switch
          label="Doughnut"
          checked={options.doughnut ?? false}
          onChange={(event) => setOption({ doughnut: event.currentTarget.checked })}
        />
      ) : null}
      {general.format === "chart:radar" ? (
        <Switch
          label="Visible labels"
          checked={options.visibleLabels ?? false}
          onChange={(event) => setOption({ visibleLabels: event.currentTarget.checked })}
        />
      ) : null}
      {general.format === "chart:gauge" ? (
        <SimpleGrid cols={2} spacing="sm">
          <NumberInput
            label="Min value"
            value={options.minValue ?? 0}
            onChange={(next) => setOption({ minValue: typeof next === "number" ? next : 0 })}
          />
          <NumberInput
            label="Max value"
            value={options.maxValue ?? 100}
            onChange={(next) => setOption({ maxValue: typeof next === "number" ? next : 100 })}
          />
        </SimpleGrid>
      ) : null}

      {orderable ? (
        <SimpleGrid cols={{ base: 1, xs: general.format === "table" ? 3 : 2 }} spacing="sm">
          <SelectInput
            label="Order by"
            searchable={false}
            data={orderColumns}
            value={orderValue}
            onChange={(next) => onChange({ orderBy: { ...general.orderBy, column: next ?? DIMENSION_COLUMN } })}
          />
          <Stack gap={4}>
            <Text component="span" fz="sm" fw={500} id="widget-order-direction">
              Direction
            </Text>
            <SegmentedControl
              aria-labelledby="widget-order-direction"
              fullWidth
              value={general.orderBy.dir}
              onChange={(dir) => onChange({ orderBy: { ...general.orderBy, dir: dir === "desc" ? "desc" : "asc" } })}
              data={[
                { value: "asc", label: "Ascending" },
                { value: "desc", label: "Descending" },
              ]}
            />
          </Stack>
          {general.format === "table" ? (
            <NumberField
              label="Rows limit"
              min={1}
              max={1000}
              step={1}
              value={general.rowsLimit}
              onValueChange={(rowsLimit) => onChange({ rowsLimit })}
            />
          ) : null}
        </SimpleGrid>
      ) : null}

      <Stack gap={8} mt={4}>
        <Switch
          label="Show values as a percentage of the total"
          checked={general.percent}
          onChange={(event) => onChange({ percent: event.currentTarget.checked })}
        />
        <Switch
          label="Hide change against the comparison period"
          checked={general.hiddenChange}
          onChange={(event) => onChange({ hiddenChange: event.currentTarget.checked })}
        />
        <Switch
          label="Hide green/red highlight"
          checked={general.hiddenHighlight}
          onChange={(event) => onChange({ hiddenHighlight: event.currentTarget.checked })}
        />
        <Switch
          label="Show insights"
          description="A sentence under the title when the comparison shows a notable change"
          checked={!general.hiddenInsights}
          onChange={(event) => onChange({ hiddenInsights: !event.currentTarget.checked })}
        />
      </Stack>
    </Stack>
  );
}
