import { isFilled, optionsReady, type TOption, type TWidgetParam, unlessHolds } from "@app/core";
import { Box, Group, MultiSelect, NumberInput, Radio, Stack, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { SelectInput } from "../../../ui/SelectInput";
import type { OptionQuery } from "../api";
import { sourceOptionsQuery } from "../queries";

/** docs/product.md §7: remote selects search after 500 ms of quiet typing. */
const REMOTE_SEARCH_DEBOUNCE_MS = 500;

type FormValues = Readonly<Record<string, unknown>>;

interface FieldsProps {
  params: readonly TWidgetParam[];
  /** The whole type form's parameters (children are rendered with their own list). */
  allParams?: readonly TWidgetParam[];
  values: FormValues;
  sourceId: string;
  widgetType: string;
  onChange: (key: string, value: unknown) => void;
}

// Same reading as core's type-form validation: a boolean parent's children belong to its "yes".
function childrenShown(param: TWidgetParam, value: unknown): boolean {
  return param.kind === "boolean" ? value === true : isFilled(value);
}

/** The values an option list may depend on: the type and every filled parameter declared before it. */
function dependencyQuery(values: FormValues, widgetType: string, before: readonly string[]): OptionQuery {
  const query: OptionQuery = { type: widgetType };
  for (const key of before) {
    const value = values[key];
    if (Array.isArray(value)) query[key] = value.map(String);
    else if (value !== null && value !== undefined && value !== "") query[key] = String(value);
  }
  return query;
}

function flattenKeys(params: readonly TWidgetParam[]): string[] {
  return params.flatMap((param) => [param.key, ...flattenKeys(param.children ?? [])]);
}

/** Options of a parameter: its fixed list, or the list its source loads (remote, cancellable). */
function useParamOptions(
  param: TWidgetParam,
  sourceId: string,
  query: OptionQuery,
  ready: boolean,
): { options: TOption[]; loading: boolean; failed: boolean } {
  const remote = param.remote ?? (param.kind === "remote" ? param.key : undefined);
  const result = useQuery({
    ...sourceOptionsQuery(sourceId, remote ?? "", query),
    enabled: Boolean(remote) && !param.options && ready,
  });
  if (param.options) return { options: param.options, loading: false, failed: false };
  return { options: result.data ?? [], loading: result.isFetching, failed: result.isError };
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

interface FieldProps {
  param: TWidgetParam;
  value: unknown;
  sourceId: string;
  query: OptionQuery;
  /** False while a required field above is still empty: the options would depend on it. */
  ready: boolean;
  onChange: (value: unknown) => void;
}

/** What an option field says while it waits for the fields above it. */
const WAITING = "Fill in the fields above first";

/** A select whose options come from the source and are searched as the user types (kind 'remote'). */
function RemoteSearchField({ param, value, sourceId, query, ready, onChange }: FieldProps) {
  const [search, setSearch] = useState("");
  const [debounced] = useDebouncedValue(search, REMOTE_SEARCH_DEBOUNCE_MS);
  const include = typeof value === "string" ? value : "";
  const searchQuery = useMemo(() => ({ ...query, searchTerm: debounced, include }), [query, debounced, include]);
  const { options, loading, failed } = useParamOptions(param, sourceId, searchQuery, ready);
  return (
    <SelectInput
      label={param.label}
      required={param.required}
      data={options}
      value={include || null}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      onChange={(next) => onChange(next ?? "")}
      disabled={!ready}
      placeholder={!ready ? WAITING : loading ? "Loading…" : "Type to search"}
      error={failed ? "The options could not be loaded (Data Error)." : undefined}
    />
  );
}

function ParamField({ param, value, sourceId, query, ready, onChange }: FieldProps) {
  const { options, loading, failed } = useParamOptions(param, sourceId, query, ready);
  const failure = failed ? "The options could not be loaded (Data Error)." : undefined;
  const waiting = !ready && !param.options;
  const placeholder = waiting ? WAITING : loading ? "Loading…" : "Choose…";
  switch (param.kind) {
    case "remote":
      return (
        <RemoteSearchField
          param={param}
          value={value}
          sourceId={sourceId}
          query={query}
          ready={ready}
          onChange={onChange}
        />
      );
    case "select":
      return (
        <SelectInput
          label={param.label}
          required={param.required}
          data={options}
          value={typeof value === "string" && value !== "" ? value : null}
          onChange={(next) => onChange(next ?? "")}
          disabled={waiting}
          placeholder={placeholder}
          allowDeselect={!param.required}
          clearable={!param.required}
          error={failure}
        />
      );
    case "multiselect":
      return (
        <MultiSelect
          label={param.label}
          required={param.required}
          withAsterisk={false}
          data={options}
          value={asStrings(value)}
          onChange={onChange}
          searchable
          clearable
          nothingFoundMessage="Nothing found"
          disabled={waiting}
          placeholder={asStrings(value).length === 0 ? placeholder : undefined}
          error={failure}
          comboboxProps={{ keepMounted: false }}
        />
      );
    case "number":
      return (
        <NumberInput
          label={param.label}
          required={param.required}
          value={typeof value === "number" ? value : ""}
          onChange={(next) => onChange(typeof next === "number" ? next : null)}
        />
      );
    case "boolean":
      // docs/product.md §5: a boolean needs an explicit answer; a new form starts with the type's declared default
      // (a CSV's questions), and without one neither choice is preselected.
      return (
        <Radio.Group
          label={param.label}
          value={value === true ? "yes" : value === false ? "no" : null}
          onChange={(next) => onChange(next === "yes")}
        >
          <Group gap="lg" mt={6}>
            <Radio value="yes" label="Yes" />
            <Radio value="no" label="No" />
          </Group>
        </Radio.Group>
      );
    default:
      return (
        <TextInput
          label={param.label}
          required={param.required}
          value={typeof value === "string" ? value : value === null || value === undefined ? "" : String(value)}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
  }
}

/**
 * The type form rendered from the widget type's parameters: a parameter whose 'unless' rule holds is
 * hidden (with its children); children appear, indented, once their parent is filled (or answered Yes).
 */
export function ParamFields({ params, allParams = params, values, sourceId, widgetType, onChange }: FieldsProps) {
  // Children depend on their parents too, so keys are read in the order of the whole form.
  const allKeys = useMemo(() => flattenKeys(allParams), [allParams]);
  return (
    <Stack gap="sm">
      {params.map((param) => {
        if (param.unless && unlessHolds(param.unless, values)) return null;
        const before = allKeys.slice(0, allKeys.indexOf(param.key));
        const query = dependencyQuery(values, widgetType, before);
        const value = values[param.key];
        return (
          <Box key={param.key}>
            <ParamFieldMemo
              param={param}
              value={value}
              sourceId={sourceId}
              ready={optionsReady(allParams, values, param.key)}
              queryKey={JSON.stringify(query)}
              onChange={(next) => onChange(param.key, next)}
            />
            {param.children && childrenShown(param, value) ? (
              <Box mt="sm" pl="md" style={{ borderLeft: "2px solid var(--mantine-color-gray-2)" }}>
                <ParamFields
                  params={param.children}
                  allParams={allParams}
                  values={values}
                  sourceId={sourceId}
                  widgetType={widgetType}
                  onChange={onChange}
                />
              </Box>
            ) : null}
          </Box>
        );
      })}
    </Stack>
  );
}

// The query object is rebuilt every render; its JSON keeps the option query key stable.
function ParamFieldMemo({ queryKey, ...props }: Omit<FieldProps, "query"> & { queryKey: string }) {
  const query = useMemo(() => JSON.parse(queryKey) as OptionQuery, [queryKey]);
  return <ParamField {...props} query={query} />;
}
