import { formatOptionsFor, INTERACTIVE_WIDGET_DEFAULTS, type TInteractiveWidget, type TTemplate } from "@app/core";

type Format = TInteractiveWidget["format"];

interface WidgetSpec {
  title: string;
  type: string;
  metrics: string[];
  dimension?: string;
  format: Format;
  width: number;
  height: number;
  property?: string;
}

function widgets(key: string, specs: WidgetSpec[]): TInteractiveWidget[] {
  return specs.map((spec, order) => ({
    id: `${key}-${order + 1}`,
    nature: "interactive",
    realTime: false,
    order,
    hash: `${key}-${order + 1}`,
    width: spec.width,
    height: spec.height,
    title: spec.title,
    description: null,
    format: spec.format,
    percent: false,
    hiddenChange: false,
    hiddenHighlight: false,
    rowsLimit: INTERACTIVE_WIDGET_DEFAULTS.rowsLimit,
    // Tables of a breakdown read best by their first metric, largest first; dated series by date.
    orderBy:
      spec.dimension && spec.dimension !== "date"
        ? { column: `a.${spec.metrics[0]}`, dir: "desc" }
        : { column: "dimension", dir: "asc" },
    formatOptions: formatOptionsFor(spec.format),
    instances: [
      {
        id: `${key}-${order + 1}-a`,
        type: spec.type,
        prefix: "a",
        sourceId: null,
        config: spec.type,
        currency: null,
        accounts: [],
        inputs: { property: spec.property ?? "acme-software", dimension: spec.dimension ?? "", metrics: spec.metrics },
        metricsOptions: {},
      },
    ],
  }));
}

const A = "demo.analytics";
const S = "demo.search";
const ADS = "demo.ads";

const TEMPLATE_LIST: TTemplate[] = [
  {
    key: "website-overview",
    name: "Website overview",
    description: "Traffic, engagement and conversions of a website at a glance.",
    connector: "demo",
    widgets: widgets("website-overview", [
      {
        title: "Key figures",
        type: A,
        metrics: ["sessions", "users", "bounce_rate", "avg_session_duration", "conversions", "revenue"],
        format: "summary",
        width: 4,
        height: 1,
      },
      {
        title: "Sessions and users",
        type: A,
        metrics: ["sessions", "users"],
        dimension: "date",
        format: "chart:line",
        width: 4,
        height: 2,
      },
      {
        title: "Channels",
        type: A,
        metrics: ["sessions", "conversions", "bounce_rate"],
        dimension: "channel",
        format: "table",
        width: 2,
        height: 2,
      },
      {
        title: "Devices",
        type: A,
        metrics: ["sessions"],
        dimension: "device",
        format: "chart:pie",
        width: 2,
        height: 2,
      },
      {
        title: "Top pages",
        type: A,
        metrics: ["pageviews", "bounce_rate", "avg_session_duration"],
        dimension: "page",
        format: "table",
        width: 4,
        height: 2,
      },
    ]),
  },
  {
    key: "seo",
    name: "SEO",
    description: "Search visibility: clicks, impressions, CTR and position by query and page.",
    connector: "demo",
    widgets: widgets("seo", [
      {
        title: "Search performance",
        type: S,
        metrics: ["clicks", "impressions", "ctr", "position"],
        format: "summary",
        width: 4,
        height: 1,
      },
      {
        title: "Clicks and impressions",
        type: S,
        metrics: ["clicks", "impressions"],
        dimension: "date",
        format: "chart:line",
        width: 4,
        height: 2,
      },
      {
        title: "Top queries",
        type: S,
        metrics: ["clicks", "impressions", "ctr", "position"],
        dimension: "query",
        format: "table",
        width: 2,
        height: 2,
      },
      {
        title: "Top pages",
        type: S,
        metrics: ["clicks", "ctr"],
        dimension: "page",
        format: "table",
        width: 2,
        height: 2,
      },
      {
        title: "Clicks by country",
        type: S,
        metrics: ["clicks"],
        dimension: "country",
        format: "chart:bar",
        width: 4,
        height: 2,
      },
    ]),
  },
  {
    key: "paid-ads",
    name: "Paid ads",
    description: "Spend, clicks and conversions of paid campaigns.",
    connector: "demo",
    widgets: widgets("paid-ads", [
      {
        title: "Ads summary",
        type: ADS,
        metrics: ["cost", "clicks", "conversions", "cpc", "ctr", "cost_per_conversion"],
        format: "summary",
        width: 4,
        height: 1,
      },
      {
        title: "Cost and conversions",
        type: ADS,
        metrics: ["cost", "conversions"],
        dimension: "date",
        format: "chart:bar",
        width: 4,
        height: 2,
      },
      {
        title: "Campaigns",
        type: ADS,
        metrics: ["cost", "clicks", "conversions", "cost_per_conversion"],
        dimension: "campaign",
        format: "table",
        width: 3,
        height: 2,
      },
      {
        title: "Cost by device",
        type: ADS,
        metrics: ["cost"],
        dimension: "device",
        format: "chart:pie",
        width: 1,
        height: 2,
      },
    ]),
  },
];

/** Templates by key (GET /api/configs/templates). */
export const TEMPLATES: Readonly<Record<string, TTemplate>> = Object.fromEntries(
  TEMPLATE_LIST.map((template) => [template.key, template]),
);

/** A template by key, or undefined. */
export function templateByKey(key: string): TTemplate | undefined {
  return TEMPLATES[key];
}
