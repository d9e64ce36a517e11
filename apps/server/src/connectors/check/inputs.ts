import type { TOption, TWidgetParam, TWidgetTypeConfig } from "@app/core";
import { paramDefaults, validateTypeForm } from "@app/core/widgets/type-form";

/** Asks the connector for a remote option list given the form so far (its `options`). */
export type OptionsLoader = (kind: string, form: Record<string, string | string[]>) => Promise<TOption[]>;

export type SampleInputs = { inputs: Record<string, unknown> } | { skipped: string };

function findParam(params: readonly TWidgetParam[], key: string): TWidgetParam | undefined {
  for (const param of params) {
    if (param.key === key) return param;
    const child = param.children && findParam(param.children, key);
    if (child) return child;
  }
  return undefined;
}

/** The form as the options route receives it: strings and string lists. */
function asQuery(form: Readonly<Record<string, unknown>>): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(form)) {
    if (value === undefined || value === null) continue;
    query[key] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return query;
}

/**
 * The smallest valid form of a widget type, filled as a user would in form order: each declared default,
 * then for every required parameter still empty the first option offered (a select's first value, a
 * multiselect's first, a remote list's first as the connector lists it), false for a yes/no, 10 for a
 * number. `given` (the operator's `--input type.key=value`) wins. A required text field nobody gave
 * (a keyword, an address) cannot be guessed: the type is skipped, saying which.
 */
export async function sampleInputs(
  config: TWidgetTypeConfig,
  loadOptions: OptionsLoader,
  given: Readonly<Record<string, unknown>> = {},
): Promise<SampleInputs> {
  let form: Record<string, unknown> = { ...paramDefaults(config.params), ...given };
  // Choices made from a list, so an empty list further on (a project without search engines) can go back
  // and take the next option of an earlier list instead (at most MAX_TRIES of each).
  const choices: { param: TWidgetParam; options: TOption[]; index: number; before: Record<string, unknown> }[] = [];
  const choose = (param: TWidgetParam, option: TOption, before: Record<string, unknown>) => {
    form = { ...before, [param.key]: param.kind === "multiselect" ? [option.value] : option.value };
  };
  // Each pass fills the first missing parameter; filling one may show others (children, `unless`).
  for (let pass = 0; pass < 100; pass += 1) {
    const [missing] = validateTypeForm(config.params, form);
    if (missing === undefined) return { inputs: form };
    const param = findParam(config.params, missing);
    if (!param) return { skipped: `cannot fill ${missing}` };
    if (param.kind === "boolean") form[param.key] = false;
    else if (param.kind === "number") form[param.key] = 10;
    else if (param.kind === "text") {
      return { skipped: `needs a value for ${param.key} (--input ${config.type}.${param.key}=…)` };
    } else {
      const options = param.remote ? await loadOptions(param.remote, asQuery(form)) : (param.options ?? []);
      const first = options[0];
      if (first) {
        choices.push({ param, options, index: 0, before: form });
        choose(param, first, form);
        continue;
      }
      let back = choices.at(-1);
      while (back && back.index + 1 >= Math.min(back.options.length, MAX_TRIES)) {
        choices.pop();
        back = choices.at(-1);
      }
      if (!back) return { skipped: `no ${param.remote ?? param.key} to choose from` };
      back.index += 1;
      choose(back.param, back.options[back.index] as TOption, back.before);
    }
  }
  return { skipped: "the form never became valid" };
}

const MAX_TRIES = 5;
