import type { DayRange, TOption, TTable } from "@app/core";
import { z } from "zod";
import { AppError } from "../../infra/errors";
import { daysOf } from "../kit/inputs";
import { type MetricDeclaration, metricHeader } from "../kit/metrics";

/**
 * What a Google Ads report may ask for, and how its answer becomes a table. GAQL fields are Google's
 * (developers.google.com/google-ads/api/fields/{v}); the answer's JSON names them in camelCase.
 * Only additive parts are fetched (impressions, clicks, cost in micros, interactions, conversions and
 * their value); every ratio is computed from the summed parts, for rows and totals alike, so a total
 * CTR is total clicks over total impressions and never an average of daily CTRs.
 */

/** GAQL `FROM` per report type (docs/product.md §5: reportType). */
export const REPORT_TYPES = {
  campaign: { label: "Campaign", resource: "campaign" },
  ad_group: { label: "Ad group", resource: "ad_group" },
  ad: { label: "Ad", resource: "ad_group_ad" },
  keyword: { label: "Keyword", resource: "keyword_view" },
} as const;
export type ReportType = keyof typeof REPORT_TYPES;

/** Google Ads answers int64 values as strings and doubles as numbers. */
const ZNumber = z.union([z.string(), z.number()]).transform(Number);
const ZId = z.union([z.string(), z.number()]).transform(String);

export const ZAdsRow = z.object({
  customer: z.object({ currencyCode: z.string() }).partial().optional(),
  campaign: z.object({ id: ZId, name: z.string(), status: z.string() }).partial().optional(),
  adGroup: z.object({ id: ZId, name: z.string(), status: z.string() }).partial().optional(),
  adGroupAd: z
    .object({ ad: z.object({ id: ZId, name: z.string(), type: z.string() }).partial().optional() })
    .partial()
    .optional(),
  adGroupCriterion: z
    .object({
      criterionId: ZId,
      keyword: z.object({ text: z.string(), matchType: z.string() }).partial().optional(),
    })
    .partial()
    .optional(),
  segments: z.object({ date: z.string(), device: z.string(), adNetworkType: z.string() }).partial().optional(),
  metrics: z
    .object({
      impressions: ZNumber,
      clicks: ZNumber,
      costMicros: ZNumber,
      interactions: ZNumber,
      conversions: ZNumber,
      conversionsValue: ZNumber,
      allConversions: ZNumber,
    })
    .partial()
    .optional(),
});
export type AdsRow = z.infer<typeof ZAdsRow>;

/** The additive parts a report sums, keyed as the answer's `metrics` object names them. */
const PARTS = {
  impressions: "metrics.impressions",
  clicks: "metrics.clicks",
  costMicros: "metrics.cost_micros",
  interactions: "metrics.interactions",
  conversions: "metrics.conversions",
  conversionsValue: "metrics.conversions_value",
  allConversions: "metrics.all_conversions",
} as const;
type Part = keyof typeof PARTS;
type Sums = Record<Part, number>;

const ratio = (top: number, bottom: number, scale = 1): number | null => (bottom > 0 ? (top / bottom) * scale : null);
/** Money fields in micros of the account's currency (cost_micros); conversions_value is in units already. */
const money = (micros: number) => micros / 1_000_000;

interface MetricDefinition extends MetricDeclaration {
  parts: Part[];
  value(sums: Sums): number | null;
}

/** Metrics offered for every report type, named as the Google Ads interface names them. */
export const METRICS: readonly MetricDefinition[] = [
  { key: "impressions", label: "Impressions", format: "number", parts: ["impressions"], value: (s) => s.impressions },
  { key: "clicks", label: "Clicks", format: "number", parts: ["clicks"], value: (s) => s.clicks },
  { key: "cost", label: "Cost", format: "money", parts: ["costMicros"], value: (s) => money(s.costMicros) },
  {
    key: "ctr",
    label: "CTR",
    format: "percent",
    parts: ["clicks", "impressions"],
    value: (s) => ratio(s.clicks, s.impressions, 100),
  },
  {
    key: "average_cpc",
    label: "Avg. CPC",
    format: "money",
    lowerIsBetter: true,
    parts: ["costMicros", "clicks"],
    value: (s) => ratio(money(s.costMicros), s.clicks),
  },
  {
    key: "average_cpm",
    label: "Avg. CPM",
    format: "money",
    lowerIsBetter: true,
    parts: ["costMicros", "impressions"],
    value: (s) => ratio(money(s.costMicros), s.impressions, 1000),
  },
  {
    key: "interactions",
    label: "Interactions",
    format: "number",
    parts: ["interactions"],
    value: (s) => s.interactions,
  },
  { key: "conversions", label: "Conversions", format: "number", parts: ["conversions"], value: (s) => s.conversions },
  {
    key: "conversion_rate",
    label: "Conv. rate",
    format: "percent",
    parts: ["conversions", "interactions"],
    value: (s) => ratio(s.conversions, s.interactions, 100),
  },
  {
    key: "conversions_value",
    label: "Conv. value",
    format: "money",
    parts: ["conversionsValue"],
    value: (s) => s.conversionsValue,
  },
  {
    key: "cost_per_conversion",
    label: "Cost / conv.",
    format: "money",
    lowerIsBetter: true,
    parts: ["costMicros", "conversions"],
    value: (s) => ratio(money(s.costMicros), s.conversions),
  },
  {
    key: "value_per_conversion",
    label: "Value / conv.",
    format: "money",
    parts: ["conversionsValue", "conversions"],
    value: (s) => ratio(s.conversionsValue, s.conversions),
  },
  {
    key: "all_conversions",
    label: "All conv.",
    format: "number",
    parts: ["allConversions"],
    value: (s) => s.allConversions,
  },
];

/** A dimension: the GAQL fields it selects, the row's key and its label. */
interface DimensionDefinition {
  key: string;
  label: string;
  /** Report types it is offered for (entities exist only at or below their level). */
  reports: readonly ReportType[];
  fields: readonly string[];
  rowKey(row: AdsRow): string;
  rowLabel(row: AdsRow): string;
}

/** Google Ads' device enum as its interface words it. */
const DEVICES: Record<string, string> = {
  MOBILE: "Mobile phones",
  DESKTOP: "Computers",
  TABLET: "Tablets",
  CONNECTED_TV: "TV screens",
  OTHER: "Other",
};
/** AdNetworkType as its interface words it. */
const NETWORKS: Record<string, string> = {
  SEARCH: "Google Search",
  SEARCH_PARTNERS: "Search partners",
  CONTENT: "Display Network",
  YOUTUBE: "YouTube",
  GOOGLE_TV: "Google TV",
  MIXED: "Cross-network",
};
/** An enum value ("RESPONSIVE_SEARCH_AD") in words ("Responsive search ad"). */
export const words = (value: string) =>
  value ? value.charAt(0) + value.slice(1).toLowerCase().replace(/_/g, " ") : "Unknown";

/** Keywords written the way Google Ads writes them: [exact], "phrase", broad. */
function keywordText(row: AdsRow): string {
  const text = row.adGroupCriterion?.keyword?.text ?? "";
  switch (row.adGroupCriterion?.keyword?.matchType) {
    case "EXACT":
      return `[${text}]`;
    case "PHRASE":
      return `"${text}"`;
    default:
      return text;
  }
}

export const adLabel = (ad: { id?: string; name?: string; type?: string } | undefined) =>
  ad?.name || `${words(ad?.type ?? "")} ${ad?.id ?? ""}`.trim();

const ALL: readonly ReportType[] = ["campaign", "ad_group", "ad", "keyword"];
export const DIMENSIONS: readonly DimensionDefinition[] = [
  {
    key: "date",
    label: "Date",
    reports: ALL,
    fields: ["segments.date"],
    rowKey: (row) => row.segments?.date ?? "",
    rowLabel: (row) => row.segments?.date ?? "",
  },
  {
    key: "device",
    label: "Device",
    reports: ALL,
    fields: ["segments.device"],
    rowKey: (row) => row.segments?.device ?? "",
    rowLabel: (row) => DEVICES[row.segments?.device ?? ""] ?? words(row.segments?.device ?? ""),
  },
  {
    key: "network",
    label: "Network",
    reports: ALL,
    fields: ["segments.ad_network_type"],
    rowKey: (row) => row.segments?.adNetworkType ?? "",
    rowLabel: (row) => NETWORKS[row.segments?.adNetworkType ?? ""] ?? words(row.segments?.adNetworkType ?? ""),
  },
  {
    key: "campaign",
    label: "Campaign",
    reports: ALL,
    fields: ["campaign.id", "campaign.name"],
    rowKey: (row) => row.campaign?.id ?? "",
    rowLabel: (row) => row.campaign?.name ?? row.campaign?.id ?? "",
  },
  {
    key: "adGroup",
    label: "Ad group",
    reports: ["ad_group", "ad", "keyword"],
    fields: ["ad_group.id", "ad_group.name"],
    rowKey: (row) => row.adGroup?.id ?? "",
    rowLabel: (row) => row.adGroup?.name ?? row.adGroup?.id ?? "",
  },
  {
    key: "ad",
    label: "Ad",
    reports: ["ad"],
    fields: ["ad_group_ad.ad.id", "ad_group_ad.ad.name", "ad_group_ad.ad.type"],
    rowKey: (row) => row.adGroupAd?.ad?.id ?? "",
    rowLabel: (row) => adLabel(row.adGroupAd?.ad),
  },
  {
    key: "keyword",
    label: "Keyword",
    reports: ["keyword"],
    // Criterion ids are unique only within their ad group.
    fields: [
      "ad_group.id",
      "ad_group_criterion.criterion_id",
      "ad_group_criterion.keyword.text",
      "ad_group_criterion.keyword.match_type",
    ],
    rowKey: (row) => `${row.adGroup?.id ?? ""}~${row.adGroupCriterion?.criterionId ?? ""}`,
    rowLabel: keywordText,
  },
];

export const metricOptions = (): TOption[] => METRICS.map((metric) => ({ value: metric.key, label: metric.label }));
export const dimensionOptions = (report: ReportType | null): TOption[] =>
  DIMENSIONS.filter((dimension) => report === null || dimension.reports.includes(report)).map((dimension) => ({
    value: dimension.key,
    label: dimension.label,
  }));

export function reportTypeOf(value: unknown): ReportType {
  if (typeof value !== "string" || value === "") {
    throw AppError.validation({ reportType: ["The report type field is required."] });
  }
  if (!(value in REPORT_TYPES)) throw AppError.validation({ reportType: ["The selected report type is invalid."] });
  return value as ReportType;
}

/** A picker's id as GAQL may carry it: digits only (never text spliced into a query). */
export function idOf(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return value;
  throw AppError.validation({ [field]: [`The selected ${field === "adGroup" ? "ad group" : field} is invalid.`] });
}

export interface ReportPlan {
  report: ReportType;
  dimension: DimensionDefinition | null;
  metrics: MetricDefinition[];
  query: string;
}

/**
 * The GAQL of one widget query: the dimension's fields, the account's currency and the additive parts
 * of the chosen metrics, from the report type's resource, over the range (in the account's time zone,
 * as Google Ads keeps its days), narrowed to a campaign, ad group or ad.
 */
export function planReport(inputs: Readonly<Record<string, unknown>>, range: DayRange): ReportPlan {
  const report = reportTypeOf(inputs.reportType);
  const chosen = Array.isArray(inputs.metrics) ? inputs.metrics.map(String).filter(Boolean) : [];
  if (chosen.length === 0) throw AppError.validation({ metrics: ["The metrics field is required."] });
  const metrics = chosen.map((key) => METRICS.find((metric) => metric.key === key));
  if (metrics.some((metric) => metric === undefined)) {
    throw AppError.validation({ metrics: ["The selected metrics are invalid."] });
  }
  const dimensionKey = typeof inputs.dimension === "string" && inputs.dimension !== "" ? inputs.dimension : null;
  const dimension = dimensionKey ? (DIMENSIONS.find((entry) => entry.key === dimensionKey) ?? null) : null;
  if (dimensionKey && !dimension?.reports.includes(report)) {
    throw AppError.validation({
      dimension: [`The selected dimension is not available in a ${words(report).toLowerCase()} report.`],
    });
  }
  const campaign = idOf(inputs.campaign, "campaign");
  const adGroup = idOf(inputs.adGroup, "adGroup");
  const ad = idOf(inputs.ad, "ad");
  // A filter must name a resource the report's rows belong to: an ad group narrows ad group, ad and
  // keyword reports; an ad narrows ad reports.
  if (adGroup && report === "campaign") {
    throw AppError.validation({ adGroup: ["An ad group narrows ad group, ad and keyword reports only."] });
  }
  if (ad && report !== "ad") throw AppError.validation({ ad: ["An ad narrows ad reports only."] });
  const parts = [...new Set((metrics as MetricDefinition[]).flatMap((metric) => metric.parts))];
  const fields = [
    ...new Set([...(dimension?.fields ?? []), "customer.currency_code", ...parts.map((part) => PARTS[part])]),
  ];
  const where = [
    `segments.date BETWEEN '${range.startDate}' AND '${range.endDate}'`,
    ...(campaign ? [`campaign.id = ${campaign}`] : []),
    ...(adGroup ? [`ad_group.id = ${adGroup}`] : []),
    ...(ad ? [`ad_group_ad.ad.id = ${ad}`] : []),
  ];
  return {
    report,
    dimension,
    metrics: metrics as MetricDefinition[],
    query: `SELECT ${fields.join(", ")} FROM ${REPORT_TYPES[report].resource} WHERE ${where.join(" AND ")}`,
  };
}

const zero = (): Sums => ({
  impressions: 0,
  clicks: 0,
  costMicros: 0,
  interactions: 0,
  conversions: 0,
  conversionsValue: 0,
  allConversions: 0,
});

function add(sums: Sums, row: AdsRow) {
  for (const part of Object.keys(sums) as Part[]) {
    const value = row.metrics?.[part];
    if (typeof value === "number" && Number.isFinite(value)) sums[part] += value;
  }
}

/** Rows shown for a dimension other than the date: the most of the first metric first. */
const ROW_LIMIT = 250;

/**
 * The answer's rows (one per resource and segment) summed per dimension value, and in total; ratios
 * computed from the sums. Money is in the account's currency.
 */
export function tableOf(plan: ReportPlan, rows: readonly AdsRow[], range: DayRange, currency: string | null): TTable {
  const total = zero();
  const groups = new Map<string, { label: string; sums: Sums }>();
  for (const row of rows) {
    add(total, row);
    if (!plan.dimension) continue;
    const key = plan.dimension.rowKey(row);
    let group = groups.get(key);
    if (!group) {
      group = { label: plan.dimension.rowLabel(row), sums: zero() };
      groups.set(key, group);
    }
    add(group.sums, row);
  }
  const values = (sums: Sums) => plan.metrics.map((metric) => metric.value(sums));
  let tableRows: TTable["rows"] = [];
  if (plan.dimension?.key === "date") {
    tableRows = daysOf(range.startDate, range.endDate).map((day) => ({
      dimension: day,
      values: values(groups.get(day)?.sums ?? zero()),
    }));
  } else if (plan.dimension) {
    tableRows = [...groups.values()]
      .map((group) => ({ dimension: group.label, values: values(group.sums) }))
      .sort((a, b) => (b.values[0] ?? Number.NEGATIVE_INFINITY) - (a.values[0] ?? Number.NEGATIVE_INFINITY))
      .slice(0, ROW_LIMIT);
  }
  return {
    dimension: plan.dimension
      ? {
          key: plan.dimension.key,
          label: plan.dimension.label,
          kind: plan.dimension.key === "date" ? "date" : "string",
        }
      : null,
    metrics: plan.metrics.map((metric) => metricHeader(metric, currency)),
    rows: tableRows,
    totals: values(total),
  };
}
