import { type TAuthKind, type TOption, type TWidgetParam, type TWidgetTypeConfig, WIDGET_FORMATS } from "@app/core";
import { type Connector, ConnectorError } from "./types";

/**
 * The provider connectors of docs/product.md §3. They are listed so the catalogue is complete and honest, but
 * connecting them arrives in a later release: creating such a source answers 422, and nothing here
 * fabricates data. Their widget types declare the inputs of docs/product.md §5 so forms and validation
 * ('unless' rules, nested children) are already exercised by real definitions.
 */

const options = (...values: string[]): TOption[] =>
  values.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1).replace(/_/g, " ") }));
const remote = (
  key: string,
  label: string,
  list: string,
  required = true,
  extra: Partial<TWidgetParam> = {},
): TWidgetParam => ({
  key,
  label,
  kind: key === "metrics" ? "multiselect" : "select",
  required,
  remote: list,
  ...extra,
});
const fixed = (key: string, label: string, values: TOption[], required = true): TWidgetParam => ({
  key,
  label,
  kind: "select",
  required,
  options: values,
});
const metrics = remote("metrics", "Metrics", "metrics");
const dimension = (required = false) => remote("dimension", "Dimension", "dimensions", required);

function type(connector: string, key: string, label: string, params: TWidgetParam[]): TWidgetTypeConfig {
  return {
    type: `${connector}.${key}`,
    label,
    connector,
    params,
    formats: [...WIDGET_FORMATS],
    mergeWithoutDimension: false,
  };
}

interface Declaration {
  key: string;
  displayName: string;
  order: number;
  authKind: TAuthKind;
  remark?: string;
  widgetTypes?: (key: string) => TWidgetTypeConfig[];
}

const DECLARATIONS: Declaration[] = [
  {
    key: "ahrefsV3",
    displayName: "Ahrefs V3",
    order: 10,
    authKind: "account+token",
    widgetTypes: (k) => [
      type(k, "site", "Site explorer", [
        { key: "target", label: "Target", kind: "text", required: true },
        fixed("mode", "Mode", options("exact", "prefix", "domain", "subdomains")),
        remote("country", "Country", "countries"),
        metrics,
      ]),
      type(k, "ranks", "Rank tracker", [
        remote("property", "Project", "properties"),
        fixed("device", "Device", options("desktop", "mobile")),
        dimension(true),
        metrics,
      ]),
    ],
  },
  {
    key: "semrush",
    displayName: "SEMrush",
    order: 11,
    authKind: "account+token",
    widgetTypes: (k) => [
      type(k, "domain", "Domain overview", [remote("database", "Database", "databases"), dimension(), metrics]),
    ],
  },
  { key: "rankRanger", displayName: "RankRanger", order: 12, authKind: "account+token" },
  { key: "serpstat", displayName: "SerpStat", order: 13, authKind: "account+token" },
  {
    key: "seranking",
    displayName: "SERanking",
    order: 14,
    authKind: "account+token",
    widgetTypes: (k) => [
      type(k, "rankings", "Rankings", [
        remote("property", "Project", "properties"),
        remote("searchEngine", "Search engine", "searchEngines"),
        dimension(true),
        metrics,
      ]),
    ],
  },
  { key: "salesflare", displayName: "SalesFlare", order: 15, authKind: "account+token" },
  { key: "woocommerce", displayName: "WooCommerce", order: 16, authKind: "site+key|secret" },
  { key: "linkedinAds", displayName: "LinkedIn Ads", order: 17, authKind: "oauth2" },
  { key: "linkedinSocial", displayName: "LinkedIn Social", order: 18, authKind: "oauth2" },
  { key: "baseMe", displayName: "Base.me", order: 19, authKind: "oauth2" },
  { key: "accuranker", displayName: "AccuRanker", order: 20, authKind: "oauth2", remark: "Also asks for an account." },
  { key: "mailchimp", displayName: "Mailchimp", order: 21, authKind: "oauth2" },
  { key: "tiktok", displayName: "TikTok", order: 22, authKind: "oauth2" },
  {
    key: "klaviyo",
    displayName: "Klaviyo [beta]",
    order: 23,
    authKind: "account+token",
    remark: "Beta.",
    widgetTypes: (k) => [
      type(k, "report", "Klaviyo report", [
        fixed("target", "Report on", options("account", "campaign", "flow")),
        remote("conversionMetric", "Conversion metric", "conversionMetrics", true, { unless: "target!:campaign|flow" }),
        metrics,
      ]),
    ],
  },
];

function unavailable(declaration: Declaration): Connector {
  const name = declaration.displayName.replace(" [beta]", "");
  const later = `Connecting ${name} arrives in a later release.`;
  const refuse = async (): Promise<never> => {
    throw new ConnectorError(`${name} cannot be queried in this release`);
  };
  return {
    key: declaration.key,
    displayName: declaration.displayName,
    order: declaration.order,
    authKind: declaration.authKind,
    available: false,
    note: declaration.remark ? `${declaration.remark} ${later}` : later,
    widgetTypes: declaration.widgetTypes?.(declaration.key) ?? [],
    options: refuse,
    query: refuse,
  };
}

/** The third-party catalogue entries of docs/product.md §3, none of which can be connected yet. */
export const THIRD_PARTY_CONNECTORS: readonly Connector[] = DECLARATIONS.map(unavailable);
