import {
  canMerge,
  DIMENSION_COLUMN,
  METRICS_PARAM,
  mergeWidgets,
  paramDefaults,
  type TInteractiveWidget,
  type TOption,
  type TTableMetric,
  type TWidget,
  type TWidgetParam,
  type TWidgetTypeConfig,
  widgetAlertMetrics,
} from "@app/core";
import { Alert, Anchor, Box, Button, Group, MultiSelect, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import { SelectInput } from "../../../ui/SelectInput";
import { connectorsQuery, sourceLabels, sourcesQuery } from "../../sources";
import type { WidgetDataResult } from "../api";
import { deleteWidgetFile } from "../api";
import { GoalsFields } from "../goals/GoalsFields";
import { goalErrors } from "../goals/goal-draft";
import { refusedGoalErrors } from "../goals/refused";
import { widgetKeys, widgetTypesQuery } from "../queries";
import { CalculatedMetricsFields } from "./CalculatedMetricsFields";
import { Disclosure } from "./Disclosure";
import {
  buildInteractive,
  buildPassive,
  defaultGeneral,
  draftFromWidget,
  type GeneralDraft,
  type InteractiveDraft,
  isDraftValid,
  missingParams,
  newDraft,
  type PassiveDraft,
  type WidgetDraft,
} from "./draft";
import { GeneralFields } from "./GeneralFields";
import { MetricOptionsFields } from "./MetricOptionsFields";
import { ParamFields } from "./ParamFields";
import { PassiveFields } from "./PassiveFields";

export interface WidgetFormProps {
  /** The widget being edited, or null to add one. */
  widget: TWidget | null;
  /** Every widget of the dashboard (merge candidates, shared files). */
  widgets: readonly TWidget[];
  /** Order given to a new widget. */
  nextOrder: number;
  onCancel: () => void;
  /** The saved widget and the ids of widgets it absorbed (docs/product.md §4 merging). */
  onSave: (widget: TWidget, absorbedIds: string[]) => void;
  /** The server's 422 on this widget's goals (`goals.0.target`), when the form reopens on a refused save. */
  refused?: Record<string, string>;
}

function findParam(params: readonly TWidgetParam[], key: string): TWidgetParam | undefined {
  for (const param of params) {
    if (param.key === key) return param;
    const child = param.children ? findParam(param.children, key) : undefined;
    if (child) return child;
  }
  return undefined;
}

function optionLabel(param: TWidgetParam | undefined, value: string): string {
  return param?.options?.find((option) => option.value === value)?.label ?? value;
}

/**
 * The edited widget's metric columns as its data on the dashboard has them (label; money, percent,
 * time; lower is better): the goal's metric is named as the card names it and its target field shows
 * the unit. A new widget has no data yet.
 */
function useCachedColumns(widget: TWidget | null): ReadonlyMap<string, TTableMetric> {
  const client = useQueryClient();
  return useMemo(() => {
    const columns = new Map<string, TTableMetric>();
    const first = widget?.nature === "interactive" ? widget.instances[0]?.id : undefined;
    if (!first) return columns;
    for (const [key, data] of client.getQueriesData<WidgetDataResult>({ queryKey: widgetKeys.data })) {
      const instances = key[1] as { id: string }[] | undefined;
      if (!data || instances?.[0]?.id !== first) continue;
      for (const metric of data.current.metrics) if (!columns.has(metric.key)) columns.set(metric.key, metric);
    }
    return columns;
  }, [client, widget]);
}

/** A metric's label from the source's option lists already loaded by the type form (its Metrics field). */
function useLoadedOptionLabels(sourceId: string | null): (value: string) => string | undefined {
  const client = useQueryClient();
  return (value) => {
    if (!sourceId) return undefined;
    for (const [, options] of client.getQueriesData<TOption[]>({ queryKey: ["source-options", sourceId] })) {
      const found = options?.find((option) => option.value === value);
      if (found) return found.label;
    }
    return undefined;
  };
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <Title order={3} fz="xs" tt="uppercase" c="dimmed" style={{ letterSpacing: 0.6 }}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/**
 * The widget form (docs/product.md §2, §4, §5): nature, then for data widgets source → widget type → the type's
 * inputs → display settings; Save stays disabled until the whole form is valid.
 */
export function WidgetForm({ widget, widgets, nextOrder, onCancel, onSave, refused }: WidgetFormProps) {
  const [draft, setDraft] = useState<WidgetDraft>(() => (widget ? draftFromWidget(widget) : newDraft()));
  // The server's messages stay at their goal until that goal is changed (or the list, for the list's).
  const [serverGoals, setServerGoals] = useState(() => refusedGoalErrors(refused, draft.interactive.goals));
  const uploaded = useRef<string[]>([]);
  const form = draft.interactive;

  const sources = useQuery(sourcesQuery());
  const connectors = useQuery(connectorsQuery());
  const source = sources.data?.find((candidate) => candidate.id === form.sourceId) ?? null;
  const types = useQuery({ ...widgetTypesQuery(source?.name ?? ""), enabled: Boolean(source) });
  const config: TWidgetTypeConfig | null = types.data?.find((type) => type.type === form.type) ?? null;

  const setInteractive = (patch: Partial<InteractiveDraft>) =>
    setDraft((current) => ({ ...current, interactive: { ...current.interactive, ...patch } }));
  const setGeneral = (patch: Partial<GeneralDraft>) =>
    setDraft((current) => ({
      ...current,
      interactive: { ...current.interactive, general: { ...current.interactive.general, ...patch } },
    }));
  const setPassive = (patch: Partial<PassiveDraft>) =>
    setDraft((current) => ({ ...current, passive: { ...current.passive, ...patch } }));

  // docs/product.md §4: a different source (or source type) resets the type form and the general form.
  const chooseSource = (sourceId: string | null) => {
    if (!sourceId || sourceId === form.sourceId) return;
    setInteractive({
      sourceId,
      type: null,
      inputs: {},
      calculatedMetrics: [],
      metricsOptions: {},
      mergeWith: [],
      goals: [],
      general: defaultGeneral(),
    });
  };

  const chooseType = (type: string | null) => {
    if (!type || type === form.type) return;
    const chosen = types.data?.find((candidate) => candidate.type === type);
    const general = defaultGeneral();
    if (chosen && chosen.formats.length > 0 && !chosen.formats.includes(general.format)) {
      general.format = chosen.formats[0];
    }
    general.title = chosen?.label ?? "";
    const inputs = paramDefaults(chosen?.params ?? []);
    setInteractive({ type, inputs, calculatedMetrics: [], metricsOptions: {}, mergeWith: [], goals: [], general });
  };

  const metricsParam = config ? findParam(config.params, METRICS_PARAM) : undefined;
  const dimensionParam = config ? findParam(config.params, "dimension") : undefined;
  const prefix = widget?.nature === "interactive" ? (widget.instances[0]?.prefix ?? "a") : "a";
  const chosenMetrics: TOption[] = useMemo(() => {
    const keys = Array.isArray(form.inputs[METRICS_PARAM]) ? (form.inputs[METRICS_PARAM] as unknown[]).map(String) : [];
    return [
      ...keys.map((key) => ({ value: key, label: optionLabel(metricsParam, key) })),
      ...form.calculatedMetrics.map((metric) => ({ value: metric.id, label: metric.name || "Calculated metric" })),
    ];
  }, [form.inputs, form.calculatedMetrics, metricsParam]);
  const orderColumns: TOption[] = [
    ...(typeof form.inputs.dimension === "string" && form.inputs.dimension !== ""
      ? [{ value: DIMENSION_COLUMN, label: optionLabel(dimensionParam, form.inputs.dimension) }]
      : [{ value: DIMENSION_COLUMN, label: "Dimension" }]),
    ...chosenMetrics.map((metric) => ({ value: `${prefix}.${metric.value}`, label: metric.label })),
  ];

  const base = draft.nature === "interactive" ? buildInteractive(draft, nextOrder) : null;
  const dimensionless = (types.data ?? []).filter((type) => type.mergeWithoutDimension).map((type) => type.type);
  const mergeCandidates = base
    ? widgets.filter((other) => other.id !== base.id && canMerge(base, other, widget?.id ?? null, dimensionless))
    : [];

  // Goals name their metric by its column in the widget's data (`<prefix>.<metric>`), and show it as the
  // card does: the data's label, else the Metrics field's, else the calculated metric's name.
  const goalColumns = useCachedColumns(widget);
  const loadedLabel = useLoadedOptionLabels(form.sourceId);
  const goalMetrics: TOption[] = base
    ? widgetAlertMetrics(base).map((metric) => ({
        value: metric.key,
        label: goalColumns.get(metric.key)?.label ?? metric.name ?? loadedLabel(metric.metric) ?? metric.metric,
      }))
    : [];
  const goalFieldErrors = (base ? goalErrors(form.goals, base.instances) : []).map((errors, index) => ({
    ...serverGoals.byKey.get(form.goals[index]?.key ?? ""),
    ...errors,
  }));
  const refusedLeft = serverGoals.byKey.size > 0 || serverGoals.list !== null;

  const missing = draft.nature === "interactive" ? missingParams(form, config) : [];
  const valid = isDraftValid(draft, config) && !(draft.nature === "interactive" && refusedLeft);

  const discardUploads = (keep: string | null) => {
    for (const filename of uploaded.current) if (filename !== keep) void deleteWidgetFile(filename).catch(() => {});
    uploaded.current = [];
  };

  // Pictures uploaded in a form that is closed without saving (Cancel, the close button, Escape) go again.
  const saved = useRef(false);
  useEffect(
    () => () => {
      if (saved.current) return;
      for (const filename of uploaded.current) void deleteWidgetFile(filename).catch(() => {});
    },
    [],
  );

  const save = () => {
    if (!valid) return;
    saved.current = true;
    if (draft.nature === "passive") {
      const built = buildPassive(draft, nextOrder);
      if (!built) return;
      const keep = built.inputs.file ?? null;
      discardUploads(keep);
      const previousFile = widget?.nature === "passive" ? widget.inputs.file : null;
      const shared = widgets.some(
        (other) => other.id !== widget?.id && other.nature === "passive" && other.inputs.file === previousFile,
      );
      if (previousFile && previousFile !== keep && !shared) void deleteWidgetFile(previousFile).catch(() => {});
      onSave(built, []);
      return;
    }
    if (!base) return;
    const absorbed = mergeCandidates.filter(
      (other): other is TInteractiveWidget => other.nature === "interactive" && form.mergeWith.includes(other.id),
    );
    onSave(
      absorbed.length > 0 ? mergeWidgets(base, absorbed) : base,
      absorbed.map((other) => other.id),
    );
  };

  const labels = sourceLabels(sources.data ?? [], connectors.data);
  const sourceOptions = (sources.data ?? []).map((item) => ({
    value: item.id,
    label: `${labels.get(item.id) ?? item.name}${item.invalid ? " (needs re-authorisation)" : ""}`,
  }));
  const missingLabels = config ? missing.map((key) => findParam(config.params, key)?.label ?? key) : [];
  const extraInstances = widget?.nature === "interactive" ? widget.instances.length - 1 : 0;

  return (
    <Stack gap={0} h="100%">
      <Box style={{ flex: 1, overflowY: "auto" }} px="lg" pb="lg">
        <Stack gap="xl">
          {widget ? null : (
            <Stack gap={6}>
              <SegmentedControl
                aria-label="Widget nature"
                fullWidth
                value={draft.nature}
                onChange={(nature) =>
                  setDraft((current) => ({ ...current, nature: nature === "passive" ? "passive" : "interactive" }))
                }
                data={[
                  { value: "interactive", label: "Interactive" },
                  { value: "passive", label: "Passive" },
                ]}
              />
              <Text fz="xs" c="dimmed">
                {draft.nature === "interactive"
                  ? "Charts, tables and numbers from a connected data source."
                  : "A text card or an image, for notes, context and branding."}
              </Text>
            </Stack>
          )}

          {draft.nature === "passive" ? (
            <PassiveFields
              draft={draft.passive}
              onChange={setPassive}
              onUploaded={(filename) => uploaded.current.push(filename)}
              onRemoveFile={(filename) => {
                if (!uploaded.current.includes(filename)) return;
                uploaded.current = uploaded.current.filter((item) => item !== filename);
                void deleteWidgetFile(filename).catch(() => {});
              }}
            />
          ) : (
            <>
              <Section title="Data">
                {sources.data && sources.data.length === 0 ? (
                  <Alert color="brand" variant="light" title="No data sources yet">
                    Connect a source first in{" "}
                    <Anchor component={Link} to="/company/sources" fz="sm">
                      Company Sources
                    </Anchor>
                    .
                  </Alert>
                ) : null}
                <SelectInput
                  label="Source"
                  required
                  data={sourceOptions}
                  value={form.sourceId}
                  onChange={chooseSource}
                  placeholder={sources.isPending ? "Loading…" : "Choose a source"}
                />
                {source ? (
                  <SelectInput
                    label="Widget type"
                    required
                    data={(types.data ?? []).map((type) => ({ value: type.type, label: type.label }))}
                    value={form.type}
                    onChange={chooseType}
                    placeholder={types.isPending ? "Loading…" : "Choose a widget type"}
                  />
                ) : null}
                {extraInstances > 0 ? (
                  <Text fz="xs" c="dimmed">
                    This widget also merges {extraInstances} other {extraInstances === 1 ? "query" : "queries"}; they
                    are kept as they are.
                  </Text>
                ) : null}
                {config && source ? (
                  <ParamFields
                    params={config.params}
                    values={form.inputs}
                    sourceId={source.id}
                    widgetType={config.type}
                    onChange={(key, value) => setInteractive({ inputs: { ...form.inputs, [key]: value } })}
                  />
                ) : null}
              </Section>

              {config ? (
                <>
                  <Section title="Display">
                    <GeneralFields
                      general={form.general}
                      formats={config.formats}
                      orderColumns={orderColumns}
                      onChange={setGeneral}
                    />
                  </Section>
                  <Stack gap="sm">
                    <Disclosure
                      title={`Calculated metrics${form.calculatedMetrics.length > 0 ? ` (${form.calculatedMetrics.length})` : ""}`}
                    >
                      <CalculatedMetricsFields
                        metrics={form.calculatedMetrics}
                        onChange={(calculatedMetrics) => setInteractive({ calculatedMetrics })}
                      />
                    </Disclosure>
                    <Disclosure
                      title={`Goals${form.goals.length > 0 ? ` (${form.goals.length})` : ""}`}
                      initiallyOpen={refused !== undefined}
                    >
                      <GoalsFields
                        goals={form.goals}
                        metrics={goalMetrics}
                        units={goalColumns}
                        errors={goalFieldErrors}
                        listError={serverGoals.list}
                        onChange={(goals) => {
                          // A goal changed (or removed) drops the server's messages on it; any change, the list's.
                          const kept = new Map(goals.map((goal) => [goal.key, goal]));
                          const byKey = new Map(
                            [...serverGoals.byKey].filter(
                              ([key]) => kept.get(key) === form.goals.find((goal) => goal.key === key),
                            ),
                          );
                          if (byKey.size !== serverGoals.byKey.size || serverGoals.list !== null)
                            setServerGoals({ byKey, list: null });
                          setInteractive({ goals });
                        }}
                      />
                    </Disclosure>
                    <Disclosure title="Metric options">
                      <MetricOptionsFields
                        metrics={chosenMetrics}
                        format={form.general.format}
                        options={form.metricsOptions}
                        onChange={(metricsOptions) => setInteractive({ metricsOptions })}
                      />
                    </Disclosure>
                    {mergeCandidates.length > 0 ? (
                      <Disclosure title="Merge with other widgets">
                        <MultiSelect
                          label="Merge with"
                          description="Their queries join this widget and the merged widgets are removed."
                          data={mergeCandidates.map((other) => ({ value: other.id, label: other.title || "Untitled" }))}
                          value={form.mergeWith}
                          onChange={(mergeWith) => setInteractive({ mergeWith })}
                          comboboxProps={{ keepMounted: false }}
                        />
                      </Disclosure>
                    ) : null}
                  </Stack>
                </>
              ) : null}
            </>
          )}
        </Stack>
      </Box>
      <Group
        justify="space-between"
        gap="sm"
        px="lg"
        py="sm"
        wrap="nowrap"
        style={{ borderTop: "1px solid var(--mantine-color-gray-2)", background: "var(--mantine-color-body)" }}
      >
        <Text fz="xs" c="dimmed" style={{ minWidth: 0 }} lineClamp={2} aria-live="polite">
          {missingLabels.length > 0
            ? `Still needed: ${missingLabels.join(", ")}`
            : valid
              ? ""
              : refusedLeft
                ? "Correct the goals the server refused."
                : "Fill in the required fields."}
        </Text>
        <Group gap="sm" wrap="nowrap">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={save} disabled={!valid}>
            Save
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
