import { AppError } from "../../infra/errors";
import { dimensionParam, metricsParam, toOptions, widgetTypeConfig } from "../options";
import type { Connector } from "../types";
import { demoTable } from "./generate";
import { logo } from "./logo";
import { DEMO_SITES, DEMO_TYPES, demoType } from "./model";
import { REALTIME_DIMENSIONS, REALTIME_METRICS, REALTIME_TYPE_KEY, realtimeMinute, realtimeTable } from "./realtime";

/** Widget types of the Demo connector: site, optional dimension, metrics (docs/product.md §3 type inputs). */
const WIDGET_TYPES = DEMO_TYPES.map((type) =>
  widgetTypeConfig({
    type: type.key,
    label: type.label,
    connector: "demo",
    params: [
      { key: "property", label: "Site", kind: "select", required: true, remote: "properties" },
      dimensionParam(type.dimensions),
      metricsParam(type.metrics),
    ],
    mergeWithoutDimension: true,
  }),
);

/** Live visitors of the last 30 minutes, for the realtime view (works offline, like all Demo data). */
const REALTIME_WIDGET_TYPE = widgetTypeConfig({
  type: REALTIME_TYPE_KEY,
  label: "Realtime: active users (last 30 minutes)",
  connector: "demo",
  params: [
    { key: "property", label: "Site", kind: "select", required: true, remote: "properties" },
    dimensionParam(REALTIME_DIMENSIONS),
    metricsParam(REALTIME_METRICS),
  ],
  realtime: true,
});

function typeOrFail(key: unknown) {
  const type = typeof key === "string" ? demoType(key) : undefined;
  if (!type) throw AppError.validation({ type: ["The selected widget type is invalid."] });
  return type;
}

/** Per Demo type, the dimension that explains its movements best (the real provider's choice where there is one). */
const BREAKDOWNS: Readonly<Record<string, string>> = {
  "demo.analytics": "channel",
  "demo.search": "device",
  "demo.ads": "campaign",
  "demo.social": "channel",
  "demo.ecommerce": "channel",
};

/**
 * Demo data that makes the product useful with no provider account (docs/decisions.md, the widget data path): realistic,
 * seeded by the source id and site, identical for the same query on every run.
 */
export const demoConnector: Connector = {
  key: "demo",
  logo,
  displayName: "Demo data",
  order: 0,
  authKind: "none",
  available: true,
  note: "Realistic sample data; no account needed.",
  widgetTypes: [...WIDGET_TYPES, REALTIME_WIDGET_TYPE],
  insightDimensions: Object.fromEntries(
    DEMO_TYPES.map((type) => [
      type.key,
      { date: "date", ...(BREAKDOWNS[type.key] && { breakdown: BREAKDOWNS[type.key] }) },
    ]),
  ),
  initialProperties: () => DEMO_SITES.map((site) => ({ ...site })),
  async options(kind, { source, form }) {
    if (kind === "properties") return [...source.properties];
    if (kind === "metrics" && form.type === REALTIME_TYPE_KEY) return toOptions(REALTIME_METRICS);
    if (kind === "dimensions" && form.type === REALTIME_TYPE_KEY) return toOptions(REALTIME_DIMENSIONS);
    if (kind === "metrics") return toOptions(typeOrFail(form.type).metrics);
    if (kind === "dimensions") return toOptions(typeOrFail(form.type).dimensions);
    throw AppError.notFound("Unknown option list.");
  },
  async query({ source, type: typeKey, inputs, range, timezone }) {
    const property = String(inputs.property ?? "");
    if (!source.properties.some((site) => site.value === property)) {
      throw AppError.validation({ property: ["The selected site is invalid."] });
    }
    const dimension = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
    const metrics = Array.isArray(inputs.metrics) ? inputs.metrics.map(String) : [];
    if (typeKey === REALTIME_TYPE_KEY) {
      const minute = realtimeMinute(Date.now());
      return realtimeTable({ sourceId: source.id, property, dimension, metrics, minute, timezone });
    }
    const type = typeOrFail(typeKey);
    return demoTable({ sourceId: source.id, property, type, dimension, metrics, range });
  },
};
