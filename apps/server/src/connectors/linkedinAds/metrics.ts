import { z } from "zod";
import type { MetricDeclaration } from "../kit/metrics";
import { cpc, ctr } from "../kit/ratios";

/**
 * The LinkedIn Ads metrics and how each is made from adAnalytics elements (docs/connectors.md,
 * "LinkedIn Ads"). Only additive fields are asked of LinkedIn; they are summed per table row, and CTR
 * and CPC are computed from the sums, never summed or averaged.
 */

/** A LinkedIn number: counts arrive as numbers, money (BigDecimal) as a decimal string ("123.45"). */
const ZAmount = z
  .union([z.number(), z.string()])
  .optional()
  .transform((value) => {
    if (value === undefined || value === "") return 0;
    const number = Number(value);
    return Number.isFinite(number) ? number : 0;
  });

const ZDate = z.object({ year: z.number(), month: z.number(), day: z.number() });

/** One element of `GET /rest/adAnalytics?q=analytics`: only the fields asked for are present. */
export const ZAnalyticsElement = z.object({
  dateRange: z.object({ start: ZDate, end: ZDate.optional() }).optional(),
  pivotValues: z.array(z.string()).optional(),
  impressions: ZAmount,
  clicks: ZAmount,
  costInLocalCurrency: ZAmount,
  externalWebsiteConversions: ZAmount,
  oneClickLeads: ZAmount,
});
export type AnalyticsElement = z.infer<typeof ZAnalyticsElement>;

/** The additive fields the connector asks for (`fields=`): LinkedIn sends only impressions and clicks without it. */
export const ANALYTICS_FIELDS = [
  "impressions",
  "clicks",
  "costInLocalCurrency",
  "externalWebsiteConversions",
  "oneClickLeads",
] as const;
type Field = (typeof ANALYTICS_FIELDS)[number];

export type Parts = Record<Field, number>;
export const emptyParts = (): Parts => ({
  impressions: 0,
  clicks: 0,
  costInLocalCurrency: 0,
  externalWebsiteConversions: 0,
  oneClickLeads: 0,
});
export function addElement(parts: Parts, element: AnalyticsElement): Parts {
  for (const field of ANALYTICS_FIELDS) parts[field] += element[field];
  return parts;
}

/** Money metrics (`format: "money"`) are in the ad account's currency. */
export interface AdsMetric extends MetricDeclaration {
  format: "number" | "money" | "percent";
  value(parts: Parts): number | null;
}

/** Money rounded to the cent, as the account's currency shows it (sums of decimals drift otherwise). */
const cents = (value: number) => Math.round(value * 100) / 100;

export const METRICS: readonly AdsMetric[] = [
  { key: "impressions", label: "Impressions", format: "number", value: (p) => p.impressions },
  { key: "clicks", label: "Clicks", format: "number", value: (p) => p.clicks },
  { key: "cost", label: "Amount spent", format: "money", value: (p) => cents(p.costInLocalCurrency) },
  { key: "conversions", label: "Conversions", format: "number", value: (p) => p.externalWebsiteConversions },
  { key: "leads", label: "Leads", format: "number", value: (p) => p.oneClickLeads },
  { key: "ctr", label: "CTR", format: "percent", value: (p) => ctr(p.clicks, p.impressions) },
  {
    key: "cpc",
    label: "Avg. CPC",
    format: "money",
    lowerIsBetter: true,
    value: (p) => {
      const value = cpc(p.costInLocalCurrency, p.clicks);
      return value === null ? null : cents(value);
    },
  },
];
export const metricByKey = new Map(METRICS.map((metric) => [metric.key, metric]));
