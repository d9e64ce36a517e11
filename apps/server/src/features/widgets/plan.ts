import {
  type DayRange,
  defaultCompareRange,
  rangeLength,
  type TWidgetDataRequest,
  type TWidgetInstance,
  type TWidgetParam,
  type TWidgetTypeConfig,
  uniquePrefix,
  validateTypeForm,
} from "@app/core";
import { widgetType } from "../../connectors";
import { AppError } from "../../infra/errors";
import { normaliseInputs } from "./query-runner";

/** Longest range one request may ask for: three years by day bounds the work of a single widget. */
export const MAX_RANGE_DAYS = 1096;

type Fields = Record<string, string[]>;

/** One instance of a widget-data request, checked: its widget type, its column prefix, its normalised inputs. */
export interface PlannedInstance {
  index: number;
  instance: TWidgetInstance;
  prefix: string;
  config: TWidgetTypeConfig;
  inputs: Record<string, unknown>;
}

/** A checked widget-data request: its instances and its ranges. */
export interface WidgetDataPlan {
  plans: PlannedInstance[];
  current: DayRange;
  previous: DayRange | null;
}

function flattenParams(params: readonly TWidgetParam[]): TWidgetParam[] {
  return params.flatMap((param) => [param, ...flattenParams(param.children ?? [])]);
}

/** 'has_footer' → 'has footer', 'conversionMetric' → 'conversion metric' (the Laravel-style messages of other forms). */
function fieldName(key: string): string {
  return key
    .replace(/_/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
}

/** docs/product.md §5 type-form rules plus fixed option lists: what is wrong with one instance's inputs. */
function inputErrors(config: TWidgetTypeConfig, instance: TWidgetInstance, at: string): Fields {
  const fields: Fields = {};
  const params = flattenParams(config.params);
  for (const key of validateTypeForm(config.params, instance.inputs)) {
    fields[`${at}.inputs.${key}`] = [`The ${fieldName(key)} field is required.`];
  }
  for (const param of params) {
    const value = instance.inputs[param.key];
    if (!param.options || value === undefined || value === null || value === "" || fields[`${at}.inputs.${param.key}`])
      continue;
    const allowed = new Set(param.options.map((option) => option.value));
    const unknown = (Array.isArray(value) ? value : [value]).map(String).filter((item) => !allowed.has(item));
    if (unknown.length > 0) fields[`${at}.inputs.${param.key}`] = [`Unknown value: ${unknown.join(", ")}.`];
  }
  return fields;
}

function rangeErrors(range: DayRange, field: string): Fields {
  if (range.startDate > range.endDate) return { [field]: ["The end date is before the start."] };
  if (rangeLength(range) > MAX_RANGE_DAYS)
    return { [field]: [`The date range may not be longer than ${MAX_RANGE_DAYS} days.`] };
  return {};
}

/**
 * The first step of the widget-data request: validates the whole request before any query, so a bad field
 * never costs an upstream call (422 per field).
 */
export function planRequest(request: TWidgetDataRequest): WidgetDataPlan {
  const current = { startDate: request.startDate, endDate: request.endDate };
  let previous: DayRange | null = null;
  if (request.comparison) {
    previous =
      request.compareStartDate && request.compareEndDate
        ? { startDate: request.compareStartDate, endDate: request.compareEndDate }
        : defaultCompareRange(current.startDate, current.endDate);
  }
  const fields: Fields = {
    ...rangeErrors(current, "endDate"),
    ...(previous ? rangeErrors(previous, "compareEndDate") : {}),
  };
  const used = new Set<string>();
  const plans: PlannedInstance[] = [];
  request.instances.forEach((instance, index) => {
    const at = `instances.${index}`;
    // Prefixes made unique as docs/product.md §4 merging does (core uniquePrefix), so column keys never collide.
    const prefix = uniquePrefix(instance.prefix, used);
    used.add(prefix);
    const found = widgetType(instance.type);
    if (!found) fields[`${at}.type`] = ["The selected widget type is invalid."];
    if (!instance.sourceId) fields[`${at}.sourceId`] = ["The source field is required."];
    if (!found) return;
    Object.assign(fields, inputErrors(found.config, instance, at));
    plans.push({
      index,
      instance,
      prefix,
      config: found.config,
      inputs: normaliseInputs(found.config, instance.inputs),
    });
  });
  if (Object.keys(fields).length > 0) throw AppError.validation(fields);
  return { plans, current, previous };
}

/** Connector validation names fields of the inputs; the request's fields are per instance. */
export function withinInstance(error: unknown, index: number): unknown {
  if (!(error instanceof AppError) || error.code !== "validation") return error;
  const fields = Object.fromEntries(
    Object.entries(error.fields ?? {}).map(([key, messages]) => [`instances.${index}.inputs.${key}`, messages]),
  );
  return AppError.validation(fields, error.message);
}
