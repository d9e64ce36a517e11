import type { TInteractiveWidget, TPassiveWidget, TWidgetInstance } from "../contract/dashboards";

/** Test builder: one widget instance with sensible values, overridable per field. */
export function buildInstance(overrides: Partial<TWidgetInstance> = {}): TWidgetInstance {
  return {
    id: "i1",
    type: "ga4",
    prefix: "a",
    sourceId: "s1",
    config: "sessions",
    currency: null,
    accounts: [],
    inputs: { property: "p1", dimension: "date", metrics: ["sessions"] },
    metricsOptions: {},
    ...overrides,
  };
}

/** Test builder: an interactive widget with the docs/product.md §9 defaults and one instance. */
export function buildWidget(overrides: Partial<TInteractiveWidget> = {}): TInteractiveWidget {
  return {
    id: "w1",
    nature: "interactive",
    realTime: false,
    order: 0,
    hash: "h1",
    width: 2,
    height: 1,
    title: "Sessions",
    description: null,
    format: "table",
    percent: false,
    hiddenChange: false,
    hiddenHighlight: false,
    rowsLimit: 15,
    orderBy: { column: "dimension", dir: "asc" },
    formatOptions: {},
    instances: [buildInstance()],
    ...overrides,
  };
}

/** Test builder: a plain passive widget. */
export function buildPassiveWidget(overrides: Partial<TPassiveWidget> = {}): TPassiveWidget {
  return {
    id: "p1",
    nature: "passive",
    realTime: false,
    order: 1,
    hash: "h2",
    width: 2,
    height: 1,
    title: "Notes",
    description: null,
    format: "textCard",
    type: "plain",
    inputs: { description: "Hello" },
    ...overrides,
  };
}
