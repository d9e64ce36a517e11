import { z } from "zod";
import type { MetricDeclaration } from "../kit/metrics";
import { cpc, cpm, ctr, ratio } from "../kit/ratios";

/**
 * What the Facebook Ads widget offers and how each number is made from Meta's insights rows
 * (docs/connectors.md, "Facebook Ads"). Meta answers numbers as strings ("361324", "5339.5") and
 * conversions as `actions` / `action_values` arrays of `{action_type, value}`; the connector reads the
 * additive parts (impressions, clicks, spend, action counts and values), sums them per table row, and
 * computes every ratio from the sums, so an average is never averaged. Reach is people, not events:
 * it is never summed (see `Parts.reach`).
 */

/** A Meta number: a decimal string, sometimes a number; absent or unreadable is null. */
const ZMetaNumber = z
  .union([z.string(), z.number()])
  .optional()
  .transform((value) => {
    if (value === undefined || value === "") return null;
    const number = Number(value);
    return Number.isFinite(number) ? number : null;
  });
const ZActions = z.array(z.object({ action_type: z.string(), value: z.union([z.string(), z.number()]) })).optional();

/** One row of `/act_{id}/insights` (or of a finished report run): only the fields the connector asks for. */
export const ZInsightRow = z.object({
  date_start: z.string().optional(),
  date_stop: z.string().optional(),
  account_currency: z.string().optional(),
  campaign_id: z.string().optional(),
  campaign_name: z.string().optional(),
  adset_id: z.string().optional(),
  adset_name: z.string().optional(),
  ad_id: z.string().optional(),
  ad_name: z.string().optional(),
  age: z.string().optional(),
  gender: z.string().optional(),
  country: z.string().optional(),
  publisher_platform: z.string().optional(),
  device_platform: z.string().optional(),
  impressions: ZMetaNumber,
  clicks: ZMetaNumber,
  spend: ZMetaNumber,
  reach: ZMetaNumber,
  actions: ZActions,
  action_values: ZActions,
});
export type InsightRow = z.infer<typeof ZInsightRow>;

/** The additive parts of one table row (or of the totals), summed over the Meta rows folded into it. */
export interface Parts {
  impressions: number;
  clicks: number;
  spend: number;
  /**
   * People reached. Not additive (one person seen on two days, or by two ads, counts once), so it is
   * only known when a single Meta row stands behind the table row; null otherwise.
   */
  reach: number | null;
  /** Meta rows folded in (reach is kept only while this is 1). */
  rows: number;
  actions: Map<string, number>;
  values: Map<string, number>;
}

export const emptyParts = (): Parts => ({
  impressions: 0,
  clicks: 0,
  spend: 0,
  reach: 0,
  rows: 0,
  actions: new Map(),
  values: new Map(),
});

/** Adds one Meta row into a table row's parts. */
export function addRow(parts: Parts, row: InsightRow): Parts {
  parts.rows += 1;
  parts.impressions += row.impressions ?? 0;
  parts.clicks += row.clicks ?? 0;
  parts.spend += row.spend ?? 0;
  parts.reach = parts.rows === 1 ? row.reach : null;
  for (const [list, into] of [
    [row.actions, parts.actions],
    [row.action_values, parts.values],
  ] as const) {
    for (const action of list ?? []) {
      const value = Number(action.value);
      if (Number.isFinite(value)) into.set(action.action_type, (into.get(action.action_type) ?? 0) + value);
    }
  }
  return parts;
}

/**
 * The first of these action types Meta reported. Purchases: `omni_purchase` already counts the pixel's
 * `offsite_conversion.fb_pixel_purchase` (and app and on-Facebook purchases), so the two are never added.
 */
function firstOf(map: Map<string, number>, types: readonly string[]): number {
  for (const type of types) {
    const value = map.get(type);
    if (value !== undefined) return value;
  }
  return 0;
}

const PURCHASE = ["omni_purchase", "offsite_conversion.fb_pixel_purchase", "purchase"];
const LEAD = ["lead", "onsite_conversion.lead_grouped", "offsite_conversion.fb_pixel_lead"];
const LINK_CLICK = ["link_click"];

/** Money metrics (`format: "money"`) are in the ad account's currency. */
interface MetricDefinition extends MetricDeclaration {
  /** The insights fields this metric is made from. */
  fields: readonly string[];
  value(parts: Parts): number | null;
}

/** Meta's own metric names (Ads Manager's column titles). */
export const METRICS: readonly MetricDefinition[] = [
  { key: "impressions", label: "Impressions", format: "number", fields: ["impressions"], value: (p) => p.impressions },
  { key: "reach", label: "Reach", format: "number", fields: ["reach"], value: (p) => p.reach },
  {
    key: "frequency",
    label: "Frequency",
    format: "number",
    fields: ["impressions", "reach"],
    value: (p) => (p.reach === null ? null : ratio(p.impressions, p.reach)),
  },
  { key: "clicks", label: "Clicks (all)", format: "number", fields: ["clicks"], value: (p) => p.clicks },
  {
    key: "link_clicks",
    label: "Link clicks",
    format: "number",
    fields: ["actions"],
    value: (p) => firstOf(p.actions, LINK_CLICK),
  },
  { key: "spend", label: "Amount spent", format: "money", fields: ["spend"], value: (p) => p.spend },
  {
    key: "ctr",
    label: "CTR (all)",
    format: "percent",
    fields: ["clicks", "impressions"],
    value: (p) => ctr(p.clicks, p.impressions),
  },
  {
    key: "cpc",
    label: "CPC (all)",
    format: "money",
    lowerIsBetter: true,
    fields: ["spend", "clicks"],
    value: (p) => cpc(p.spend, p.clicks),
  },
  {
    key: "cpm",
    label: "CPM (cost per 1,000 impressions)",
    format: "money",
    lowerIsBetter: true,
    fields: ["spend", "impressions"],
    value: (p) => cpm(p.spend, p.impressions),
  },
  {
    key: "cost_per_link_click",
    label: "Cost per link click",
    format: "money",
    lowerIsBetter: true,
    fields: ["spend", "actions"],
    value: (p) => ratio(p.spend, firstOf(p.actions, LINK_CLICK)),
  },
  {
    key: "purchases",
    label: "Purchases",
    format: "number",
    fields: ["actions"],
    value: (p) => firstOf(p.actions, PURCHASE),
  },
  {
    key: "purchase_value",
    label: "Purchases conversion value",
    format: "money",
    fields: ["action_values"],
    value: (p) => firstOf(p.values, PURCHASE),
  },
  {
    key: "cost_per_purchase",
    label: "Cost per purchase",
    format: "money",
    lowerIsBetter: true,
    fields: ["spend", "actions"],
    value: (p) => ratio(p.spend, firstOf(p.actions, PURCHASE)),
  },
  {
    key: "purchase_roas",
    label: "Purchase ROAS (return on ad spend)",
    format: "number",
    fields: ["spend", "action_values"],
    value: (p) => ratio(firstOf(p.values, PURCHASE), p.spend),
  },
  { key: "leads", label: "Leads", format: "number", fields: ["actions"], value: (p) => firstOf(p.actions, LEAD) },
  {
    key: "cost_per_lead",
    label: "Cost per lead",
    format: "money",
    lowerIsBetter: true,
    fields: ["spend", "actions"],
    value: (p) => ratio(p.spend, firstOf(p.actions, LEAD)),
  },
];

export const metricByKey = new Map(METRICS.map((metric) => [metric.key, metric]));

/** Insights fields for these metrics, each once, in a stable order. */
export function fieldsOf(metrics: readonly MetricDefinition[]): string[] {
  return [...new Set(metrics.flatMap((metric) => metric.fields))].sort();
}
