import type { DomainMetricKey } from "@app/core";

/** One day's value of one catalogue metric, as a provider delivers it. */
export interface DomainMetricValue {
  metric: DomainMetricKey;
  /** yyyy-mm-dd */
  day: string;
  value: number;
}

export interface DomainMetricsRequest {
  /** The company asking: a real provider uses that company's connected sources and keys. */
  companyId: string;
  /** A normalised host (core's normaliseDomain). */
  domain: string;
  /** First and last day, both included (yyyy-mm-dd). */
  from: string;
  to: string;
  signal?: AbortSignal;
}

/** Whether a provider has anything for a domain; when not, the sentence saying what to connect. */
/**
 * Whether a provider covers a domain. `plan` names the source of each metric it gives (e.g. which
 * connected source): a metric whose source changes is fetched anew rather than mixed with the old one.
 */
export type DomainCoverage =
  | { covered: true; plan?: Partial<Record<DomainMetricKey, string>> }
  | { covered: false; hint: string };

/**
 * Where a group's daily domain metrics come from (docs/decisions.md, "Mission Control metric sources"). The snapshot jobs ask it for a range of
 * days and store what it answers; the group page only ever reads the stored values, so a slow or
 * failing provider never slows a page down.
 */
export interface DomainMetricsProvider {
  /** Stored with every value (domain_metric_days.provider), so two sources' values never mix. */
  id: string;
  /** Shown beside the values ("Demo data"). */
  label: string;
  /** The catalogue metrics it delivers; the group page shows these and only these. */
  metrics: readonly DomainMetricKey[];
  /** The latest day it has complete values for: a day still filling in would read as a fall. */
  latestCompleteDay(): string;
  /** Daily values of the covered metrics over the range; a day or metric it lacks is simply absent. */
  fetch(request: DomainMetricsRequest): Promise<DomainMetricValue[]>;
  /**
   * Whether the company has anything covering the domain (the connected-sources provider: a Search
   * Console property for it, an Ahrefs source). Absent: every domain is covered. Asked by the jobs only
   * (it may call providers); the group page reads what they stored.
   */
  coverage?(companyId: string, domain: string, signal?: AbortSignal): Promise<DomainCoverage>;
}
