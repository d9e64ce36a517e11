import type { TOption } from "@app/core";
import { ActionIcon, Button, Fieldset, Group, NumberInput, SimpleGrid, Stack, Text } from "@mantine/core";
import { IconPlus, IconTrash } from "../../../ui/icons";
import { SelectInput } from "../../../ui/SelectInput";
import { type GoalDraft, type GoalErrors, type GoalMetricUnit, newGoalDraft, PERIOD_OPTIONS } from "./goal-draft";

interface Props {
  goals: GoalDraft[];
  /** The widget's chosen metrics (value: the metric's key). */
  metrics: TOption[];
  /** How each metric's values read (money, percent, time), when the widget's data says it. */
  units: ReadonlyMap<string, GoalMetricUnit>;
  /** Each goal's errors (goalErrors), in the goals' order. */
  errors: GoalErrors[];
  /** An error on the goals as a whole (the server's "at most 10 goals"). */
  listError?: string | null;
  onChange: (goals: GoalDraft[]) => void;
}

/** A currency's symbol as amounts show it ('$', '€'), or its code. */
function currencySymbol(currency: string): string {
  try {
    const parts = new Intl.NumberFormat("en-US", { style: "currency", currency }).formatToParts(0);
    return parts.find((part) => part.type === "currency")?.value ?? currency;
  } catch {
    return currency;
  }
}

/** The target field's unit: a change is in percent; otherwise the metric's own unit, when known. */
function targetAdornment(goal: GoalDraft, unit: GoalMetricUnit | undefined) {
  if (goal.period === "change") {
    return { suffix: " %", description: "The change against the comparison period: 10 asks for +10 %." };
  }
  if (unit?.format === "money") {
    const currency = (unit.currency || "USD").toUpperCase();
    return { prefix: `${currencySymbol(currency)} `, description: `In ${currency}.` };
  }
  if (unit?.format === "percent") return { suffix: " %", description: undefined };
  if (unit?.format === "time") return { suffix: " s", description: "In seconds." };
  return { description: undefined };
}

/**
 * The widget's goals (docs/product.md, "Goals"): per goal a metric of the widget, a target in the
 * metric's unit and what the target is for. A lower-is-better metric's target is a ceiling to stay
 * under, said under the field. Errors are the contract's own messages (the server's 422 says the same).
 */
export function GoalsFields({ goals, metrics, units, errors, listError = null, onChange }: Props) {
  const update = (index: number, patch: Partial<GoalDraft>) =>
    onChange(goals.map((goal, position) => (position === index ? { ...goal, ...patch } : goal)));
  return (
    <Stack gap="sm">
      {goals.length === 0 ? (
        <Text fz="sm" c="dimmed">
          Set a target on a metric: the widget shows how far along it is and whether it is on pace.
        </Text>
      ) : null}
      {metrics.length === 0 && goals.length === 0 ? (
        <Text fz="sm" c="dimmed">
          Choose metrics first.
        </Text>
      ) : null}
      {goals.map((goal, index) => {
        const unit = units.get(goal.metric ?? "");
        const adornment = targetAdornment(goal, unit);
        const lower = unit?.lowerIsBetter && goal.period !== "change";
        return (
          <Fieldset key={goal.key} legend={`Goal ${index + 1}`} radius="md" p="sm">
            <Stack gap="xs">
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
                <SelectInput
                  label="Metric"
                  required
                  searchable={false}
                  data={metrics}
                  value={goal.metric}
                  error={errors[index]?.metric}
                  onChange={(metric) => update(index, { metric })}
                />
                <SelectInput
                  label="Target for"
                  required
                  searchable={false}
                  data={PERIOD_OPTIONS}
                  value={goal.period}
                  error={errors[index]?.period}
                  onChange={(period) => update(index, { period: (period as GoalDraft["period"]) ?? goal.period })}
                />
              </SimpleGrid>
              <Group gap="xs" align="flex-start" wrap="nowrap">
                <NumberInput
                  label={lower ? "Stay under" : "Target"}
                  required
                  style={{ flex: 1 }}
                  value={goal.target ?? ""}
                  prefix={adornment.prefix}
                  suffix={adornment.suffix}
                  thousandSeparator=","
                  decimalScale={2}
                  description={
                    lower
                      ? `Lower is better for this metric: the goal is met while it stays under. ${adornment.description ?? ""}`.trim()
                      : adornment.description
                  }
                  error={errors[index]?.target}
                  onChange={(next) => update(index, { target: typeof next === "number" ? next : null })}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  mt={28}
                  aria-label={`Remove goal ${index + 1}`}
                  onClick={() => onChange(goals.filter((_, position) => position !== index))}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            </Stack>
          </Fieldset>
        );
      })}
      {listError ? (
        <Text fz="sm" c="red" role="alert">
          {listError}
        </Text>
      ) : null}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          disabled={metrics.length === 0}
          onClick={() => onChange([...goals, newGoalDraft(metrics[0]?.value ?? null)])}
        >
          Add goal
        </Button>
      </Group>
    </Stack>
  );
}
