import type { MetricDeclaration } from "../kit/metrics";
import { cpc, cpm, ctr, ratio } from "../kit/ratios";

/**
 * What the TikTok widget offers and how each number is made (docs/connectors.md, "TikTok"). TikTok is
 * asked only for additive metrics (cost, impressions, clicks, conversions, video views, engagement);
 * they are summed per table row, across date windows and for the totals, and every ratio is computed
 * from the sums (CTR, CPC, CPM, cost per conversion, conversion rate), never averaged.
 */

/** The additive metrics asked from TikTok's report (`metrics=[…]`). */
export const PARTS = [
  "spend",
  "impressions",
  "clicks",
  "conversion",
  "video_play_actions",
  "video_watched_6s",
  "likes",
  "comments",
  "shares",
  "follows",
] as const;
export type Part = (typeof PARTS)[number];
export type Parts = Record<Part, number>;

export const emptyParts = (): Parts => Object.fromEntries(PARTS.map((part) => [part, 0])) as Parts;

/** TikTok answers metrics as strings ("12.34", "1000"); "-" or an absent value counts as 0. */
export function addMetrics(parts: Parts, metrics: Readonly<Record<string, unknown>>): Parts {
  for (const part of PARTS) {
    const value = Number(metrics[part]);
    if (Number.isFinite(value)) parts[part] += value;
  }
  return parts;
}

/** Money metrics are in the advertiser's currency (`format: "money"`). */
export interface TikTokMetric extends MetricDeclaration {
  /** The parts this metric needs from TikTok. */
  parts: readonly Part[];
  value(parts: Parts): number | null;
}

const sum = (key: Part, label: string): TikTokMetric => ({
  key,
  label,
  format: "number",
  parts: [key],
  value: (parts) => parts[key],
});

export const METRICS: readonly TikTokMetric[] = [
  { key: "spend", label: "Cost", format: "money", parts: ["spend"], value: (parts) => parts.spend },
  sum("impressions", "Impressions"),
  sum("clicks", "Clicks (destination)"),
  {
    key: "ctr",
    label: "CTR (destination)",
    format: "percent",
    parts: ["clicks", "impressions"],
    value: (parts) => ctr(parts.clicks, parts.impressions),
  },
  {
    key: "cpc",
    label: "CPC (destination)",
    format: "money",
    lowerIsBetter: true,
    parts: ["spend", "clicks"],
    value: (parts) => cpc(parts.spend, parts.clicks),
  },
  {
    key: "cpm",
    label: "CPM",
    format: "money",
    lowerIsBetter: true,
    parts: ["spend", "impressions"],
    value: (parts) => cpm(parts.spend, parts.impressions),
  },
  sum("conversion", "Conversions"),
  {
    key: "cost_per_conversion",
    label: "Cost per conversion",
    format: "money",
    lowerIsBetter: true,
    parts: ["spend", "conversion"],
    value: (parts) => ratio(parts.spend, parts.conversion),
  },
  {
    key: "conversion_rate",
    label: "Conversion rate",
    format: "percent",
    parts: ["conversion", "clicks"],
    value: (parts) => ratio(parts.conversion, parts.clicks, 100),
  },
  sum("video_play_actions", "Video views"),
  sum("video_watched_6s", "6-second video views"),
  sum("likes", "Likes"),
  sum("comments", "Comments"),
  sum("shares", "Shares"),
  sum("follows", "Follows"),
];

export const metricByKey = new Map(METRICS.map((metric) => [metric.key, metric]));

/** TikTok metric names for these metrics, each once, in a stable order. */
export const partsOf = (metrics: readonly TikTokMetric[]): Part[] =>
  PARTS.filter((part) => metrics.some((metric) => metric.parts.includes(part)));
