import {
  DOMAIN_METRICS,
  type DomainMetricKey,
  describeChange,
  formatNumber,
  NOT_AVAILABLE,
  type TCampaignDomainWithMetrics,
  type TDomainMetricChange,
} from "@app/core";

/**
 * The columns of the group page: traffic (clicks, sessions), authority (domain rating, referring
 * domains) and rank (average position), one each of what an agency checks first. The API answers
 * more; a wider table would not fit a laptop beside the domain and its actions.
 */
export const MAIN_METRICS: readonly DomainMetricKey[] = [
  "clicks",
  "sessions",
  "domainRating",
  "referringDomains",
  "averagePosition",
];

/** A metric cell: the value, and its change as text with an arrow and a tone for the colour. */
export interface MetricCell {
  key: DomainMetricKey;
  label: string;
  value: string;
  change: string;
  arrow: "up" | "down" | null;
  tone: TDomainMetricChange["tone"];
  /** The day the value describes (each cell's own: one source may be a day behind another). */
  asOf: string | null;
  /**
   * Why the cell shows "N/A" (its value, or only its change), in words for its tooltip and accessible
   * name; null when it shows a value and a change. A bare "N/A" reads as a fault of ours.
   */
  notAvailable: string | null;
}

/**
 * What supplies each metric in a group fed by connected sources: Search Console the search figures,
 * a Google Analytics 4 stream the visits, Ahrefs (or the server's key) the authority and keyword figures;
 * average position also comes from a rank tracker.
 */
const SUPPLIER: Record<DomainMetricKey, string> = {
  clicks: "Search Console property",
  impressions: "Search Console property",
  ctr: "Search Console property",
  averagePosition: "Search Console property or rank tracker",
  sessions: "Google Analytics 4 stream",
  users: "Google Analytics 4 stream",
  conversions: "Google Analytics 4 stream",
  domainRating: "Ahrefs data",
  referringDomains: "Ahrefs data",
  rankedKeywords: "Ahrefs data",
  keywordsTop3: "Ahrefs data",
  keywordsTop10: "Ahrefs data",
  organicTraffic: "Ahrefs data",
};

/**
 * Why a cell shows "N/A" (its value or its change), or null when it shows both: no source covers the
 * metric for this domain, no value in the window, or nothing to compare the value with.
 */
export function notAvailableReason(
  key: DomainMetricKey,
  metric: TDomainMetricChange | undefined,
  changeShown: boolean,
): string | null {
  const label = DOMAIN_METRICS[key].label;
  if (metric === undefined) return `${label}: N/A, no ${SUPPLIER[key]} covers this domain.`;
  if (metric.current === null) return `${label}: N/A, no value for this period yet.`;
  if (changeShown) return null;
  return metric.baseline === null
    ? `${label} change: N/A, no earlier value to compare with.`
    : `${label} change: N/A, the earlier value was zero.`;
}

export function metricCell(key: DomainMetricKey, metric: TDomainMetricChange | undefined): MetricCell {
  const definition = DOMAIN_METRICS[key];
  const shown = describeChange(definition, {
    change: metric?.change ?? null,
    percentChange: metric?.percent_change ?? null,
  });
  return {
    key,
    label: definition.label,
    value: formatNumber(metric?.current ?? null, { format: definition.format }),
    change: shown.text,
    arrow: shown.arrow,
    tone: metric?.tone ?? "flat",
    asOf: metric?.as_of ?? null,
    notAvailable: notAvailableReason(key, metric, shown.arrow !== null || shown.text !== NOT_AVAILABLE),
  };
}

/** The day a domain's values describe: the latest `as_of` of its metrics, or null before any arrived. */
export function domainAsOf(domain: TCampaignDomainWithMetrics): string | null {
  let latest: string | null = null;
  for (const metric of domain.metrics) {
    if (metric.as_of && (latest === null || metric.as_of > latest)) latest = metric.as_of;
  }
  return latest;
}

const DAY_FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const INSTANT_FORMAT = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });

/** A calendar day (YYYY-MM-DD) as "25 Nov 2026"; read in UTC so it never shifts by a time zone. */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : DAY_FORMAT.format(date);
}

/** An instant (ISO) as the viewer's local day, e.g. the end of a snooze. */
export function formatInstantDay(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : INSTANT_FORMAT.format(date);
}

/** "1 domain" / "3 domains", and the same for alerts. */
export function countLabel(count: number, singular: string, plural: string): string {
  return `${formatNumber(count)} ${count === 1 ? singular : plural}`;
}

/**
 * The order of the group page: domains with open alerts first (most alerts first), as the page answers
 * "which client needs attention today"; then the rest by name, as the server lists them.
 */
export function attentionOrder<T extends { domain: string; alerts: readonly unknown[] }>(domains: readonly T[]): T[] {
  return [...domains].sort(
    (a, b) => b.alerts.length - a.alerts.length || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0),
  );
}
