import type { DayRange, DomainMetricKey, TOption, TSourceOptionQuery, TTable } from "@app/core";
import type { AppConfig } from "../../infra/config";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import type { SourceHandle } from "../types";

/**
 * Domain metrics: what Mission Control reads for a domain (docs/decisions.md, "Mission Control metric
 * sources" and "Domain metrics are a capability a connector declares"). A connector that can give a
 * domain's daily numbers declares `domainMetrics` in its own folder; Mission Control's connected-sources
 * provider and its server-key sources iterate the registry and name no connector.
 */

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

/**
 * Whether a provider covers a domain. `plan` names the source of each metric it gives (e.g. which
 * connected source): a metric whose source changes is fetched anew rather than mixed with the old one.
 */
export type DomainCoverage =
  | { covered: true; plan?: Partial<Record<DomainMetricKey, string>> }
  | { covered: false; hint: string };

/**
 * Where a group's daily domain metrics come from. The snapshot jobs ask it for a range of days and store
 * what it answers; the group page only ever reads the stored values, so a slow or failing provider never
 * slows a page down.
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

/**
 * One connected source as a connector's domain metrics see it. Every call goes through the sources
 * service: stored results, quota buckets, and a lost grant marking the source invalid (banner 125).
 */
export interface DomainMetricsSource {
  id: string;
  /** A remote option list of the source, as a widget form asks it (a Search Console source's sites). */
  options(kind: string, form: TSourceOptionQuery): Promise<TOption[]>;
  /** A call of the connector's own with the source's handle, through the service's guard. */
  call<T>(read: (handle: SourceHandle) => Promise<T>): Promise<T>;
  /** One widget query of the source, through the stored results (asked by day; the zone only keys the result). */
  query(type: string, inputs: Record<string, unknown>, range: DayRange): Promise<TTable>;
}

/** What of one source covers a domain: the name of that source in plans, and how its days are read. */
export interface DomainMetricsLocation {
  /**
   * Names the source of the metrics in the stored plan (`<what>:<source id>:<part>`): a metric whose
   * name changes is fetched anew. Kept stable: a new spelling would refetch every domain once.
   */
  plan: string;
  /** Daily values of the domain over the range, as catalogue values (a metric or day it lacks is absent). */
  read(range: DayRange): Promise<DomainMetricValue[]>;
}

/**
 * The server's own key of a provider (the operator's, not a company's): a metrics source of its own
 * that covers any domain with no customer connection. Its id is one of the contract's
 * CAMPAIGN_METRICS_SOURCES.
 */
export interface ServerKeyDomainMetrics {
  id: string;
  /** The provider's name; the create form shows it with "(server)". */
  label: string;
  /** Why a group cannot use it on a server without the key (the form's note, the 422's words). */
  notConfigured: string;
  /** The provider, or null when this server has no key for it (then it is offered as unavailable). */
  provider(server: ServerKeyContext): DomainMetricsProvider | null;
}

export interface ServerKeyContext {
  config: AppConfig;
  counters: RateLimitStore;
  logger?: { warn(details: Record<string, unknown>, message: string): void };
  now(): Date;
}

/** A connector's domain metrics (`Connector.domainMetrics`). */
export interface DomainMetrics {
  /**
   * Its place among the connectors giving domain metrics: the order their sources are asked in and of
   * the group page's columns (a metric two give keeps the first one's place).
   */
  order: number;
  /** The catalogue metrics it gives for a domain it covers. */
  metrics: readonly DomainMetricKey[];
  /**
   * Of two covering sources giving one metric, the higher precedence gives it (one source per metric,
   * so a series never mixes two scales); equal: the first in `order`. Absent: 0.
   */
  precedence?: number;
  /** Days before today its numbers are still filling in; the connected sources wait for the slowest. */
  lagDays: number;
  /** How "what to connect" names it, for a domain nothing covers ("a rank tracker" for several). */
  hint: string;
  /** The part of the source that covers the domain (a site, a property, a project), or null. */
  locate(source: DomainMetricsSource, domain: string): Promise<DomainMetricsLocation | null>;
  /** The server's own key of this provider, when the operator may set one. */
  serverKey?: ServerKeyDomainMetrics;
}

/** A column of a widget query's table → the catalogue metric it is. */
export type ColumnMap = readonly (readonly [string, DomainMetricKey])[];

/** The column keys to ask a widget query for. */
export const columnKeys = (columns: ColumnMap): string[] => columns.map(([key]) => key);

/** The catalogue metrics of a column map, in its order. */
export const columnMetrics = (columns: ColumnMap): DomainMetricKey[] => columns.map(([, metric]) => metric);

/** A by-date table as catalogue values: each finite number of a mapped column, per day row. */
export function tableDomainValues(table: TTable, columns: ColumnMap): DomainMetricValue[] {
  const values: DomainMetricValue[] = [];
  for (const row of table.rows) {
    const day = row.dimension;
    if (typeof day !== "string") continue;
    table.metrics.forEach((column, index) => {
      const metric = columns.find(([key]) => key === column.key)?.[1];
      const value = row.values[index];
      if (metric && typeof value === "number" && Number.isFinite(value)) values.push({ metric, day, value });
    });
  }
  return values;
}

/**
 * The host a site address stands for, without `www.` (as Mission Control stores domains):
 * `https://www.acme.com`, `acme.com/` and `www.acme.com` are all acme.com. An address with a path
 * (`acme.com/blog`) is a section, not the domain: null, like anything that is not an address.
 */
export function siteHost(address: string): string | null {
  const text = address.trim();
  if (text === "") return null;
  try {
    const url = new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    if (url.pathname !== "/" && url.pathname !== "") return null;
    return url.hostname
      .toLowerCase()
      .replace(/\.$/, "")
      .replace(/^www\./, "");
  } catch {
    return null;
  }
}
