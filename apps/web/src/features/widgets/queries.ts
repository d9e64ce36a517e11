import type { TInteractiveWidget, TWidgetInstance } from "@app/core";
import { hashKey, keepPreviousData, queryOptions } from "@tanstack/react-query";
import { createContext } from "react";
import { ApiError } from "../../lib/api";
import { fetchSourceOptions, fetchWidgetTypes, type OptionQuery, type PublicAccess } from "./api";
import { requestWidgetData, takeEarlyWidgetData, type WidgetRange } from "./early-data";

export type { WidgetRange } from "./early-data";

export const widgetKeys = {
  data: ["widget-data"] as const,
  types: (type: string) => ["configs", "widgets", type] as const,
  options: (sourceId: string, option: string, query: OptionQuery) =>
    ["source-options", sourceId, option, query] as const,
};

// Metric options only change how data is drawn (docs/product.md §4), so they stay out of the data key.
function queryPart({ metricsOptions: _drawOnly, ...query }: TWidgetInstance) {
  return query;
}

/**
 * A widget's instances as its data key holds them, and their hash (React Query's own `hashKey`), made
 * once per widget object: React Query hashes a query's key on each render of each card, and a widget's
 * instances (every input) were most of that text; the widget objects are replaced, never changed, when
 * edited (docs/decisions.md, "The owner's dashboard: the cards before the rest of the screen").
 */
const instanceParts = new WeakMap<
  TInteractiveWidget,
  { instances: Array<ReturnType<typeof queryPart>>; hashed: string }
>();
function instancesPart(widget: TInteractiveWidget) {
  let part = instanceParts.get(widget);
  if (!part) {
    const instances = widget.instances.map(queryPart);
    part = { instances, hashed: hashKey(instances) };
    instanceParts.set(widget, part);
  }
  return part;
}

/** `hashKey`'s text of one value (its hash of `[value]` less the brackets). */
const hashPart = (value: unknown) => hashKey([value]).slice(1, -1);

/** `hashKey(key)` for a widget-data key whose instances are hashed already: the same text. */
export function widgetDataHash(hashedInstances: string, key: readonly unknown[]): string {
  const rest = key.slice(2).map((part) => hashPart(part ?? null));
  return `[${[hashPart(key[0]), hashedInstances, ...rest].join(",")}]`;
}

/**
 * docs/product.md §4: a widget refetches only when its query or the range changes. The key holds exactly the
 * request (instances without metric options, range, zone), so a style change (format, ordering,
 * rows limit, size) reuses the cached table, and two widgets with the same query share one request.
 */
export function widgetDataQuery(widget: TInteractiveWidget, range: WidgetRange, access: PublicAccess | null = null) {
  const { instances, hashed } = instancesPart(widget);
  // Goals are answered with the data (their pace needs the provider's days): a changed goal asks again.
  const goals = widget.goals ?? [];
  return queryOptions({
    queryKey: [...widgetKeys.data, instances, range, access, goals] as const,
    queryKeyHashFn: (key) => (key[1] === instances ? widgetDataHash(hashed, key) : hashKey(key)),
    // Members send the widget's instances (also unsaved ones, while editing); public viewers name a saved
    // widget. The request the dashboard's start sent for this very widget and range, else a new one.
    queryFn: ({ signal }) =>
      takeEarlyWidgetData(widget, range, access) ?? requestWidgetData(widget, range, access, signal),
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
    // A failing source (502) or a rejected query (4xx) is an answer: show 'Data Error' at once.
    retry: (failureCount, error) => failureCount < 1 && !(error instanceof ApiError && error.status < 503),
  });
}

/** Widget type configurations, cached per type for the session (docs/product.md §7). */
export function widgetTypesQuery(type: string) {
  return queryOptions({
    queryKey: widgetKeys.types(type),
    queryFn: () => fetchWidgetTypes(type),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}

/** A remote option list; TanStack Query aborts the request when the form values change first. */
export function sourceOptionsQuery(sourceId: string, option: string, query: OptionQuery) {
  return queryOptions({
    queryKey: widgetKeys.options(sourceId, option, query),
    queryFn: ({ signal }) => fetchSourceOptions(sourceId, option, query, signal),
    staleTime: 5 * 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** Set by a dashboard shown to a public viewer: widgets then load through its permalink. */
export const PublicAccessContext = createContext<PublicAccess | null>(null);
