import { DOMAIN_METRICS, type TAlertRule } from "@app/core";
import { Group, NumberInput, SegmentedControl, Stack, Switch, Table, Text } from "@mantine/core";
import { describeRule, thresholdUnit } from "../rules-view";

/** A number typed into a field, or NaN when it was emptied (sent as null: the server names the field). */
const typed = (value: number | string) => (typeof value === "number" ? value : Number.NaN);
const shown = (value: number | null) => (value === null || Number.isNaN(value) ? "" : value);

/**
 * Edits a list of alert rules: each one on or off, its threshold, window and minimum baseline, with the
 * rule spelled out as it reads now. `errors` are the server's 422 keyed `rules.{index}.{field}`.
 */
export function AlertRulesEditor({
  rules,
  onChange,
  errors = {},
  disabled = false,
}: {
  rules: TAlertRule[];
  onChange: (rules: TAlertRule[]) => void;
  errors?: Record<string, string>;
  disabled?: boolean;
}) {
  const set = (index: number, patch: Partial<TAlertRule>) =>
    onChange(rules.map((rule, at) => (at === index ? { ...rule, ...patch } : rule)));

  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to scroll it.
    <section aria-label="Alert rules" tabIndex={0} style={{ overflowX: "auto" }}>
      <Table verticalSpacing="sm" miw={640}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Rule</Table.Th>
            <Table.Th w={150}>Threshold</Table.Th>
            <Table.Th w={120}>Window</Table.Th>
            <Table.Th w={150}>Minimum baseline</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rules.map((rule, index) => {
            const error = (field: string) => errors[`rules.${index}.${field}`];
            const unit = thresholdUnit(rule);
            const metric = DOMAIN_METRICS[rule.metric];
            // Unique per row (two rules may watch one metric) and stable while the threshold is typed.
            const label =
              rule.condition === "noDataFor"
                ? `${metric.label}: no data`
                : `${metric.label}: ${metric.lowerIsBetter ? "worse" : "down"}`;
            return (
              <Table.Tr key={rule.id} data-rule={rule.id} opacity={rule.enabled ? 1 : 0.6}>
                <Table.Td>
                  <Switch
                    checked={rule.enabled}
                    disabled={disabled}
                    onChange={(event) => set(index, { enabled: event.currentTarget.checked })}
                    label={<Text size="sm">{describeRule({ ...rule, threshold: rule.threshold || 0 })}</Text>}
                    aria-label={`${rule.enabled ? "Turn off" : "Turn on"}: ${describeRule(rule)}`}
                    error={error("enabled")}
                  />
                </Table.Td>
                <Table.Td>
                  <NumberInput
                    aria-label={`Threshold of “${label}” rule`}
                    size="xs"
                    min={0}
                    decimalScale={2}
                    value={shown(rule.threshold)}
                    onChange={(value) => set(index, { threshold: typed(value) })}
                    rightSection={
                      unit ? (
                        <Text size="xs" c="dimmed">
                          {unit}
                        </Text>
                      ) : null
                    }
                    rightSectionWidth={unit.length > 2 ? 72 : 32}
                    error={error("threshold")}
                    disabled={disabled}
                  />
                </Table.Td>
                <Table.Td>
                  {rule.condition === "noDataFor" ? (
                    <Text size="xs" c="dimmed">
                      —
                    </Text>
                  ) : (
                    <Stack gap={2}>
                      <SegmentedControl
                        size="xs"
                        aria-label={`Window of “${label}” rule`}
                        value={String(rule.window)}
                        onChange={(value) => set(index, { window: value === "30" ? 30 : 7 })}
                        data={[
                          { value: "7", label: "7 days" },
                          { value: "30", label: "30 days" },
                        ]}
                        disabled={disabled}
                      />
                      {error("window") ? (
                        <Text size="xs" c="red">
                          {error("window")}
                        </Text>
                      ) : null}
                    </Stack>
                  )}
                </Table.Td>
                <Table.Td>
                  {rule.condition === "noDataFor" ? (
                    <Text size="xs" c="dimmed">
                      —
                    </Text>
                  ) : (
                    <Group gap={4} wrap="nowrap">
                      <NumberInput
                        aria-label={`Minimum baseline of “${label}” rule`}
                        size="xs"
                        min={0}
                        placeholder="None"
                        value={shown(rule.minBaseline)}
                        onChange={(value) => set(index, { minBaseline: value === "" ? null : typed(value) })}
                        error={error("minBaseline")}
                        disabled={disabled}
                      />
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </section>
  );
}
