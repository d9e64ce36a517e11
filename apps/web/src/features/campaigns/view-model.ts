import {
  DOMAIN_METRICS,
  type DomainMetricKey,
  describeChange,
  formatNumber,
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
