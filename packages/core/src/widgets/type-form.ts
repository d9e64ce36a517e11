import type { TWidgetParam } from "../contract/sources";
import { isFilled } from "../forms/filled";
import { CALCULATED_METRICS_PARAM, METRICS_PARAM } from "./params";
import { unlessHolds } from "./unless";

/** The values of a widget type form, keyed by parameter key. */
export type TypeForm = Readonly<Record<string, unknown>>;

/** docs/product.md §5: booleans need an explicit true or false; everything else uses the filled rule. */
export function isParamFilled(param: Pick<TWidgetParam, "kind">, value: unknown): boolean {
  return param.kind === "boolean" ? typeof value === "boolean" : isFilled(value);
}

// A boolean parent's children belong to its "on" state (has_header → header rows), so they are
// checked only when it is true; other parents' children are checked once the parent is filled.
function childrenApply(param: TWidgetParam, value: unknown): boolean {
  return param.kind === "boolean" ? value === true : isFilled(value);
}

function collectMissing(params: readonly TWidgetParam[], form: TypeForm, missing: string[]): void {
  for (const param of params) {
    // A parameter whose 'unless' holds is hidden, and so are its children.
    if (param.unless && unlessHolds(param.unless, form)) continue;
    const value = form[param.key];
    const coveredByCalculated = param.key === METRICS_PARAM && isFilled(form[CALCULATED_METRICS_PARAM]);
    if (param.required && !coveredByCalculated && !isParamFilled(param, value)) missing.push(param.key);
    if (param.children && childrenApply(param, value)) collectMissing(param.children, form, missing);
  }
}

/**
 * docs/product.md §5 type-form validation: the keys of required parameters that are not filled, in declaration
 * order (children after their parent). Empty means the form is valid. `metrics` is not needed when
 * calculatedMetrics has at least one entry.
 */
export function validateTypeForm(params: readonly TWidgetParam[], form: TypeForm): string[] {
  const missing: string[] = [];
  collectMissing(params, form, missing);
  return missing;
}

/** True when validateTypeForm finds nothing missing. */
export function isTypeFormValid(params: readonly TWidgetParam[], form: TypeForm): boolean {
  return validateTypeForm(params, form).length === 0;
}

/** The starting values of a new type form: each parameter's declared default (children included). */
export function paramDefaults(params: readonly TWidgetParam[]): Record<string, boolean | string | number> {
  const defaults: Record<string, boolean | string | number> = {};
  for (const param of params) {
    if (param.default !== undefined) defaults[param.key] = param.default;
    Object.assign(defaults, paramDefaults(param.children ?? []));
  }
  return defaults;
}

// Walks the shown parameters in form order; false stops the walk.
function walkShown(params: readonly TWidgetParam[], form: TypeForm, visit: (param: TWidgetParam) => boolean): boolean {
  for (const param of params) {
    if (param.unless && unlessHolds(param.unless, form)) continue;
    if (!visit(param)) return false;
    if (param.children && childrenApply(param, form[param.key]) && !walkShown(param.children, form, visit))
      return false;
  }
  return true;
}

/**
 * Whether the option list of parameter `key` can be asked for: an option list depends on the answers
 * above it (a CSV's columns on its file, sheet and yes/no questions), so it waits until every required
 * parameter shown before it is filled. Asking earlier only earns a 422.
 */
export function optionsReady(params: readonly TWidgetParam[], form: TypeForm, key: string): boolean {
  let ready = true;
  walkShown(params, form, (param) => {
    if (param.key === key) return false;
    if (param.required && !isParamFilled(param, form[param.key])) {
      ready = false;
      return false;
    }
    return true;
  });
  return ready;
}
