import {
  DEFAULT_ORDER_BY,
  formatOptionsFor,
  type HistoricArticle,
  INTERACTIVE_WIDGET_DEFAULTS,
  isArticleComplete,
  isTypeFormValid,
  isWidgetFormValid,
  PASSIVE_WIDGET_DEFAULTS,
  sanitiseMetricsOptions,
  type TCalculatedMetric,
  type TFormatOptions,
  type TInstanceInputs,
  type TInteractiveWidget,
  type TMetricOption,
  type TOrderBy,
  type TPassiveWidget,
  type TWidget,
  type TWidgetInstance,
  type TWidgetTypeConfig,
  validateTypeForm,
  type WidgetFormat,
  ZCalculatedMetric,
} from "@app/core";
import { builtGoals, type GoalDraft, goalDrafts, goalsValid } from "../goals/goal-draft";

/** Passive widget kinds (docs/product.md §3): text card, uploaded image, or dated (historic) articles. */
export type PassiveKind = "plain" | "upload" | "historic";

/** The general part of an interactive widget (docs/product.md §4 "general form"). */
export interface GeneralDraft {
  title: string;
  format: WidgetFormat;
  formatOptions: TFormatOptions;
  width: number;
  height: number;
  rowsLimit: number | null;
  orderBy: TOrderBy;
  percent: boolean;
  hiddenChange: boolean;
  hiddenHighlight: boolean;
  /** The owner hid the widget's insights line (shown unless switched off). */
  hiddenInsights?: boolean;
}

export interface InteractiveDraft {
  sourceId: string | null;
  type: string | null;
  /** The type form: parameter values by key (docs/product.md §4 "type form"). */
  inputs: Record<string, unknown>;
  calculatedMetrics: TCalculatedMetric[];
  metricsOptions: Record<string, TMetricOption>;
  general: GeneralDraft;
  /** Widgets to absorb on save (docs/product.md §4 merging). */
  mergeWith: string[];
  /** Targets on the widget's metrics (docs/product.md, "Goals"). */
  goals: GoalDraft[];
}

export interface PassiveDraft {
  title: string;
  width: number;
  height: number;
  type: PassiveKind | null;
  description: string;
  file: string | null;
  articles: HistoricArticle[];
}

/** Everything the widget form edits; both natures are kept so switching back and forth loses nothing. */
export interface WidgetDraft {
  nature: "interactive" | "passive";
  /** The widget being edited, or null for a new one. */
  original: TWidget | null;
  interactive: InteractiveDraft;
  passive: PassiveDraft;
}

function newId(): string {
  return typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** docs/product.md §9 defaults of a new interactive widget's general form. */
export function defaultGeneral(): GeneralDraft {
  return {
    title: "",
    format: INTERACTIVE_WIDGET_DEFAULTS.format,
    formatOptions: formatOptionsFor(INTERACTIVE_WIDGET_DEFAULTS.format),
    width: INTERACTIVE_WIDGET_DEFAULTS.width,
    height: INTERACTIVE_WIDGET_DEFAULTS.height,
    rowsLimit: INTERACTIVE_WIDGET_DEFAULTS.rowsLimit,
    orderBy: { ...INTERACTIVE_WIDGET_DEFAULTS.orderBy },
    percent: false,
    hiddenChange: false,
    hiddenHighlight: false,
  };
}

function emptyInteractive(): InteractiveDraft {
  return {
    sourceId: null,
    type: null,
    inputs: {},
    calculatedMetrics: [],
    metricsOptions: {},
    general: defaultGeneral(),
    mergeWith: [],
    goals: [],
  };
}

function emptyPassive(): PassiveDraft {
  return {
    title: "",
    width: PASSIVE_WIDGET_DEFAULTS.width,
    height: PASSIVE_WIDGET_DEFAULTS.height,
    type: "plain",
    description: "",
    file: null,
    articles: [],
  };
}

/** The form for a new widget. */
export function newDraft(): WidgetDraft {
  return { nature: "interactive", original: null, interactive: emptyInteractive(), passive: emptyPassive() };
}

/** The form for an existing widget; interactive widgets edit their first instance's query. */
export function draftFromWidget(widget: TWidget): WidgetDraft {
  if (widget.nature === "passive") {
    return {
      nature: "passive",
      original: widget,
      interactive: emptyInteractive(),
      passive: {
        title: widget.title,
        width: widget.width,
        height: widget.height,
        type: widget.type,
        description: widget.inputs.description ?? widget.description ?? "",
        file: widget.inputs.file ?? null,
        articles: widget.inputs.articles ?? [],
      },
    };
  }
  const first = widget.instances[0];
  const { calculatedMetrics = [], ...inputs } = first.inputs;
  return {
    nature: "interactive",
    original: widget,
    passive: emptyPassive(),
    interactive: {
      sourceId: first.sourceId,
      type: first.type,
      inputs,
      calculatedMetrics,
      metricsOptions: first.metricsOptions,
      mergeWith: [],
      goals: goalDrafts(widget.goals),
      general: {
        title: widget.title,
        format: widget.format,
        formatOptions: formatOptionsFor(widget.format, widget.formatOptions),
        width: widget.width,
        height: widget.height,
        rowsLimit: widget.rowsLimit,
        orderBy: widget.orderBy,
        percent: widget.percent,
        hiddenChange: widget.hiddenChange,
        hiddenHighlight: widget.hiddenHighlight,
        hiddenInsights: widget.hiddenInsights ?? false,
      },
    },
  };
}

/** The type form's values as core validation reads them (parameters plus calculatedMetrics). */
export function typeFormValues(draft: InteractiveDraft): Record<string, unknown> {
  return { ...draft.inputs, calculatedMetrics: draft.calculatedMetrics, type: draft.type };
}

/** docs/product.md §5: required parameters missing from the type form (keys). */
export function missingParams(draft: InteractiveDraft, config: TWidgetTypeConfig | null): string[] {
  if (!config) return [];
  return validateTypeForm(config.params, typeFormValues(draft));
}

/** True when every calculated metric has a name, a type and an expression that parses. */
export function calculatedMetricsValid(metrics: readonly TCalculatedMetric[]): boolean {
  return metrics.every((metric) => ZCalculatedMetric.safeParse(metric).success);
}

function instanceInputs(draft: InteractiveDraft): TInstanceInputs {
  const inputs: TInstanceInputs = {};
  for (const [key, value] of Object.entries(draft.inputs)) {
    if (value === undefined) continue;
    if (
      value === null ||
      typeof value === "string" ||
      typeof value === "number" ||
      typeof value === "boolean" ||
      (Array.isArray(value) && value.every((item) => typeof item === "string" || typeof item === "number"))
    ) {
      inputs[key] = value as TInstanceInputs[string];
    }
  }
  if (draft.calculatedMetrics.length > 0) inputs.calculatedMetrics = draft.calculatedMetrics;
  return inputs;
}

/** The interactive widget the draft describes (null until source and type are chosen). */
export function buildInteractive(draft: WidgetDraft, order: number): TInteractiveWidget | null {
  const form = draft.interactive;
  if (!form.sourceId || !form.type) return null;
  const original = draft.original?.nature === "interactive" ? draft.original : null;
  const first = original?.instances[0];
  const sameQueryKind = first && first.type === form.type && first.sourceId === form.sourceId;
  const format = form.general.format;
  const instance: TWidgetInstance = {
    id: first?.id ?? newId(),
    type: form.type,
    prefix: first?.prefix ?? "a",
    sourceId: form.sourceId,
    // The type key is the preset config; a merged widget keeps its 'custom' config while its type stands.
    config: sameQueryKind ? first.config : form.type,
    currency: first?.currency ?? null,
    accounts: first?.accounts ?? [],
    inputs: instanceInputs(form),
    metricsOptions: sanitiseMetricsOptions(format, form.metricsOptions),
  };
  const others = (original?.instances.slice(1) ?? []).map((other) => ({
    ...other,
    metricsOptions: sanitiseMetricsOptions(format, other.metricsOptions),
  }));
  return {
    id: original?.id ?? newId(),
    nature: "interactive",
    realTime: original?.realTime ?? false,
    order: original?.order ?? order,
    hash: original?.hash ?? newId(),
    width: form.general.width,
    height: form.general.height,
    title: form.general.title.trim(),
    description: original?.description ?? null,
    format,
    percent: form.general.percent,
    hiddenChange: form.general.hiddenChange,
    hiddenHighlight: form.general.hiddenHighlight,
    hiddenInsights: form.general.hiddenInsights ?? false,
    rowsLimit: form.general.rowsLimit ?? INTERACTIVE_WIDGET_DEFAULTS.rowsLimit,
    orderBy: form.general.orderBy ?? DEFAULT_ORDER_BY,
    formatOptions: formatOptionsFor(format, form.general.formatOptions),
    instances: [instance, ...others],
    ...(form.goals.length > 0 ? { goals: builtGoals(form.goals) } : {}),
  };
}

/** The passive widget the draft describes (null until its kind is chosen). */
export function buildPassive(draft: WidgetDraft, order: number): TPassiveWidget | null {
  const form = draft.passive;
  if (!form.type) return null;
  const original = draft.original?.nature === "passive" ? draft.original : null;
  return {
    id: original?.id ?? newId(),
    nature: "passive",
    realTime: false,
    order: original?.order ?? order,
    hash: original?.hash ?? newId(),
    width: form.width,
    height: form.height,
    title: form.title.trim(),
    description: form.type === "plain" ? form.description : form.description || null,
    format: PASSIVE_WIDGET_DEFAULTS.format,
    type: form.type,
    inputs:
      form.type === "upload"
        ? { file: form.file, description: form.description }
        : form.type === "historic"
          ? { description: form.description, articles: form.articles }
          : { description: form.description },
  };
}

/** docs/product.md §5 validity of the whole form: the general rules of core plus the type form and calculated metrics. */
export function isDraftValid(draft: WidgetDraft, config: TWidgetTypeConfig | null): boolean {
  if (draft.nature === "passive") {
    const form = draft.passive;
    const base = isWidgetFormValid({
      nature: "passive",
      title: form.title.trim(),
      width: form.width,
      height: form.height,
      format: PASSIVE_WIDGET_DEFAULTS.format,
      type: form.type ?? undefined,
    });
    if (form.type === "historic") return base && form.articles.length > 0 && form.articles.every(isArticleComplete);
    return base && (form.type !== "upload" || Boolean(form.file));
  }
  const form = draft.interactive;
  const general = form.general;
  const instances = form.sourceId && form.type ? [{ prefix: "a", config: form.type }] : [];
  return (
    isWidgetFormValid({
      nature: "interactive",
      title: general.title.trim(),
      width: general.width,
      height: general.height,
      format: general.format,
      instances,
    }) &&
    config !== null &&
    isTypeFormValid(config.params, typeFormValues(form)) &&
    calculatedMetricsValid(form.calculatedMetrics) &&
    goalsValid(form.goals, buildInteractive(draft, 0)?.instances ?? []) &&
    (general.format !== "table" || (general.rowsLimit !== null && general.rowsLimit >= 1))
  );
}

/** A copy of a widget with fresh ids, placed right after it (Duplicate). */
export function duplicateWidget(widget: TWidget): TWidget {
  const copy = { ...widget, id: newId(), hash: newId(), title: `${widget.title} (copy)`.slice(0, 255) };
  if (copy.nature === "interactive") {
    copy.instances = copy.instances.map((instance) => ({ ...instance, id: newId() }));
  }
  return copy;
}
