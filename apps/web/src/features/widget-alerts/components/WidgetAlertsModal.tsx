import type { TWidget, TWidgetAlert } from "@app/core";
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Divider,
  Group,
  Loader,
  Modal,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { ApiError, errorMessage, fieldErrors } from "../../../lib/api";
import { type WidgetRange, widgetDataQuery } from "../../widgets";
import {
  type AlertFormValues,
  alertFormErrors,
  alertMetricOptions,
  alertSummary,
  CONDITION_OPTIONS,
  DIRECTION_OPTIONS,
  defaultAlertValues,
  takesDirection,
  valueLabel,
  valuesOf,
} from "../form-model";
import { useWidgetAlertActions, useWidgetAlerts } from "../hooks";

/** A widget added since the dashboard was last saved is not on the server yet. */
export const UNSAVED_WIDGET_MESSAGE = "Save the dashboard first: alerts watch the widgets as they are saved.";

const problemOf = (error: unknown) =>
  error instanceof ApiError && error.status === 404 ? UNSAVED_WIDGET_MESSAGE : errorMessage(error);

export interface WidgetAlertsModalProps {
  onClose: () => void;
  dashboardId: string;
  widget: TWidget;
  /** The dashboard's range: the widget's loaded data under it names the metrics. */
  range: WidgetRange;
  /** The viewer's zone, for "Snoozed until". */
  timezone: string;
}

/**
 * "Alert me when…" of a widget (docs/decisions.md, "Alerts on any widget metric"): the widget's alerts with pause, snooze and delete, and
 * the form for a new one or the one being changed; the server's 422 shows under each field.
 */
export function WidgetAlertsModal({ onClose, dashboardId, widget, range, timezone }: WidgetAlertsModalProps) {
  const queryClient = useQueryClient();
  const metrics = useMemo(() => {
    const loaded =
      widget.nature === "interactive"
        ? queryClient.getQueryData(widgetDataQuery(widget, range).queryKey)?.current.metrics
        : undefined;
    return alertMetricOptions(widget, loaded);
  }, [queryClient, widget, range]);
  const labelOf = (key: string) => metrics.find((metric) => metric.value === key)?.label ?? key;
  const alerts = useWidgetAlerts(dashboardId, widget.id, true);
  const actions = useWidgetAlertActions(dashboardId, widget.id);
  const [editing, setEditing] = useState<TWidgetAlert | null>(null);
  const [values, setValues] = useState<AlertFormValues>(() => defaultAlertValues(metrics));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [actionError, setActionError] = useState<string | null>(null);
  const title = widget.title || "Untitled widget";

  const set = (patch: Partial<AlertFormValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    setErrors({});
  };
  const startNew = () => {
    setEditing(null);
    setValues(defaultAlertValues(metrics));
    setErrors({});
  };
  const startEdit = (alert: TWidgetAlert) => {
    setEditing(alert);
    setValues(valuesOf(alert));
    setErrors({});
  };

  const submit = () => {
    const local = alertFormErrors(values);
    if (Object.keys(local).length > 0) {
      setErrors(local);
      return;
    }
    actions.save.mutate(
      { id: editing?.id ?? null, dashboardId, widgetId: widget.id, values },
      {
        onSuccess: startNew,
        onError: (error) => setErrors(fieldErrors(error) ?? { general: problemOf(error) }),
      },
    );
  };

  const act = (run: () => Promise<unknown>) => {
    setActionError(null);
    run().catch((error: unknown) => setActionError(errorMessage(error)));
  };
  const togglePause = (alert: TWidgetAlert) =>
    act(() =>
      actions.save.mutateAsync({
        id: alert.id,
        dashboardId,
        widgetId: widget.id,
        values: { ...valuesOf(alert), paused: !alert.paused },
      }),
    );

  const valueName = valueLabel(values.condition);
  return (
    <Modal opened onClose={onClose} title={`Alerts: ${title}`} size="lg">
      <Stack gap="md">
        {alerts.isLoading ? <Loader size="sm" /> : null}
        {alerts.error ? (
          <Alert color="red" variant="light" role="alert">
            {problemOf(alerts.error)}
          </Alert>
        ) : null}
        {actionError ? (
          <Alert color="red" variant="light" role="alert">
            {actionError}
          </Alert>
        ) : null}
        {alerts.data && alerts.data.length > 0 ? (
          <Stack
            gap="xs"
            component="ul"
            style={{ listStyle: "none", padding: 0, margin: 0 }}
            aria-label="Alerts of this widget"
          >
            {alerts.data.map((alert) => {
              const summary = alertSummary(alert, labelOf, timezone);
              return (
                <li key={alert.id} data-alert-id={alert.id}>
                  <Group justify="space-between" wrap="wrap" align="flex-start" gap="xs">
                    <Stack gap={2} style={{ minWidth: 0 }}>
                      <Group gap="xs">
                        <Text fw={600} size="sm">
                          {summary.rule}
                        </Text>
                        <Badge color={summary.tone} variant="light" size="sm">
                          {summary.status}
                        </Badge>
                      </Group>
                      {alert.last_message ? (
                        <Text size="xs" c="dimmed">
                          {alert.last_message}
                        </Text>
                      ) : null}
                      <Text size="xs" c="dimmed">
                        To {alert.recipients.join(", ")}
                      </Text>
                    </Stack>
                    <Group gap={4} wrap="nowrap">
                      <Button size="compact-xs" variant="subtle" onClick={() => startEdit(alert)}>
                        Edit
                      </Button>
                      <Button size="compact-xs" variant="subtle" onClick={() => togglePause(alert)}>
                        {alert.paused ? "Resume" : "Pause"}
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={() => act(() => actions.snooze.mutateAsync({ id: alert.id, on: !alert.snoozed }))}
                      >
                        {alert.snoozed ? "Un-snooze" : "Snooze a week"}
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        onClick={() =>
                          act(async () => {
                            await actions.remove.mutateAsync(alert.id);
                            if (editing?.id === alert.id) startNew();
                          })
                        }
                      >
                        Delete
                      </Button>
                    </Group>
                  </Group>
                </li>
              );
            })}
          </Stack>
        ) : alerts.data ? (
          <Text size="sm" c="dimmed">
            No alerts on this widget yet.
          </Text>
        ) : null}
        <Divider label={editing ? "Change alert" : "Alert me when…"} labelPosition="left" />
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Stack gap="sm">
            {errors.general ? (
              <Alert color="red" variant="light" role="alert">
                {errors.general}
              </Alert>
            ) : null}
            <Select
              label="Metric"
              data={metrics}
              value={values.metric || null}
              onChange={(metric) => set({ metric: metric ?? "" })}
              error={errors.metric}
              allowDeselect={false}
            />
            <Select
              label="Condition"
              data={CONDITION_OPTIONS}
              value={values.condition}
              onChange={(condition) => condition && set({ condition: condition as AlertFormValues["condition"] })}
              error={errors.condition}
              allowDeselect={false}
            />
            {valueName ? (
              <TextInput
                label={valueName}
                inputMode="decimal"
                value={values.value}
                onChange={(event) => set({ value: event.currentTarget.value })}
                error={errors.value}
              />
            ) : (
              <Text size="xs" c="dimmed">
                The usual range is learned from the metric's own recent days, each compared with the same weekday of
                earlier weeks; the most recent days a source is still filling in are not judged.
              </Text>
            )}
            {takesDirection(values.condition) ? (
              <Select
                label="Direction"
                data={DIRECTION_OPTIONS}
                value={values.direction}
                onChange={(direction) => direction && set({ direction: direction as AlertFormValues["direction"] })}
                error={errors.direction}
                allowDeselect={false}
              />
            ) : null}
            <Textarea
              label="Recipients"
              description="Up to 5 addresses, separated by commas"
              placeholder="ceo@client.com, marketing@client.com"
              autosize
              minRows={1}
              value={values.recipients}
              onChange={(event) => set({ recipients: event.currentTarget.value })}
              error={errors.recipients}
            />
            <Checkbox
              label="Paused"
              checked={values.paused}
              onChange={(event) => set({ paused: event.currentTarget.checked })}
              error={errors.paused}
            />
            <Group justify="flex-end">
              {editing ? (
                <Button variant="default" onClick={startNew}>
                  Cancel
                </Button>
              ) : null}
              <Button type="submit" loading={actions.save.isPending && !actionError}>
                {editing ? "Save alert" : "Create alert"}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Modal>
  );
}
