import {
  CALCULATED_METRIC_TYPES,
  type CalculatedMetricType,
  type TCalculatedMetric,
  ZCalculatedMetric,
} from "@app/core";
import { ActionIcon, Button, Fieldset, Group, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { IconPlus, IconTrash } from "../../../ui/icons";
import { SelectInput } from "../../../ui/SelectInput";

/** 'average:time:minutes' → 'Average · time (minutes)'. */
function typeLabel(type: CalculatedMetricType): string {
  const [aggregate, kind, unit] = type.split(":");
  const head = aggregate === "average" ? "Average" : "Sum";
  if (!kind) return `${head} · number`;
  if (kind === "time") return `${head} · time (${unit})`;
  return `${head} · ${kind === "money" ? "money" : "percent"}`;
}

const TYPE_OPTIONS = CALCULATED_METRIC_TYPES.map((type) => ({ value: type, label: typeLabel(type) }));

function fieldError(metric: TCalculatedMetric, field: "name" | "expression"): string | undefined {
  if (metric[field].trim() === "") return undefined;
  const parsed = ZCalculatedMetric.safeParse(metric);
  if (parsed.success) return undefined;
  return parsed.error.issues.find((issue) => issue.path[0] === field)?.message;
}

function newMetric(index: number): TCalculatedMetric {
  const id = `calc_${Date.now().toString(36)}${index}`;
  return { id, name: "", type: "numeric", expression: "" };
}

interface Props {
  metrics: TCalculatedMetric[];
  onChange: (metrics: TCalculatedMetric[]) => void;
}

/** Optional calculated metrics (name, type, expression over the metric keys). */
export function CalculatedMetricsFields({ metrics, onChange }: Props) {
  const update = (index: number, patch: Partial<TCalculatedMetric>) =>
    onChange(metrics.map((metric, position) => (position === index ? { ...metric, ...patch } : metric)));
  return (
    <Stack gap="sm">
      {metrics.length === 0 ? (
        <Text fz="sm" c="dimmed">
          Derive a metric from others, e.g. <code>conversions / sessions * 100</code>. When a calculated metric exists,
          choosing metrics is optional.
        </Text>
      ) : null}
      {metrics.map((metric, index) => (
        <Fieldset key={metric.id} legend={`Calculated metric ${index + 1}`} radius="md" p="sm">
          <Stack gap="xs">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <TextInput
                label="Name"
                value={metric.name}
                error={fieldError(metric, "name")}
                onChange={(event) => update(index, { name: event.currentTarget.value })}
              />
              <SelectInput
                label="Type"
                searchable={false}
                data={TYPE_OPTIONS}
                value={metric.type}
                onChange={(next) => update(index, { type: (next ?? "numeric") as CalculatedMetricType })}
              />
            </SimpleGrid>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <TextInput
                label="Expression"
                style={{ flex: 1 }}
                placeholder="revenue / orders"
                value={metric.expression}
                error={fieldError(metric, "expression")}
                onChange={(event) => update(index, { expression: event.currentTarget.value })}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                mb={fieldError(metric, "expression") ? 22 : 2}
                aria-label={`Remove calculated metric ${index + 1}`}
                onClick={() => onChange(metrics.filter((_, position) => position !== index))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          </Stack>
        </Fieldset>
      ))}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() => onChange([...metrics, newMetric(metrics.length)])}
        >
          Add calculated metric
        </Button>
      </Group>
    </Stack>
  );
}
