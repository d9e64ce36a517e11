import type { DomainMetricKey, TSource } from "@app/core";
import type { DomainMetrics, DomainMetricsSource } from "../../../connectors";
import type { SourcesService } from "../../sources/service";
import type { DomainMetricValue } from "./types";

/** A connector whose sources give a domain's metrics, as the registry lists them (DOMAIN_METRICS_CONNECTORS). */
export interface FeedingConnector {
  key: string;
  domainMetrics: DomainMetrics;
}

/** One covering source: the metrics it gives (those no covering source of higher precedence gives). */
export interface PlannedSource {
  plan: string;
  gives: readonly DomainMetricKey[];
  read(range: { startDate: string; endDate: string }): Promise<DomainMetricValue[]>;
}

const precedenceOf = (capability: DomainMetrics) => capability.precedence ?? 0;

/** The metrics of the connectors in their order; a metric two give keeps the first one's place. */
export const metricsOf = (feeding: readonly FeedingConnector[]): DomainMetricKey[] => [
  ...new Set(feeding.flatMap((connector) => connector.domainMetrics.metrics)),
];

/** Days the slowest of them is still filling in: one latest complete day for every metric of the provider. */
export const lagOf = (feeding: readonly FeedingConnector[]): number =>
  Math.max(0, ...feeding.map((connector) => connector.domainMetrics.lagDays));

/** "Search Console, Google Analytics 4, Ahrefs or a rank tracker": what to connect, in their words. */
export function hintOf(feeding: readonly FeedingConnector[]): string {
  const names = [...new Set(feeding.map((connector) => connector.domainMetrics.hint))];
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** One of the company's sources as a connector's domain metrics see it: every call through the sources service. */
function sourceAccess(sources: () => SourcesService, companyId: string, sourceId: string): DomainMetricsSource {
  const system = { id: "system", companyId, roleName: "admin" };
  return {
    id: sourceId,
    options: (kind, form) => sources().options(system, sourceId, kind, form),
    async call(read) {
      const loaded = await sources().load(companyId, sourceId);
      return sources().guard(companyId, sourceId, () => read(loaded.handle));
    },
    async query(type, inputs, range) {
      const service = sources();
      const loaded = await service.load(companyId, sourceId);
      // Inputs as the widget data path normalises them (declared keys, none empty): the stored result's key.
      const { table } = await service.query(companyId, loaded, { type, inputs, range, timezone: "UTC" });
      return table;
    },
  };
}

/**
 * Which of the company's usable sources cover a domain, and which metrics each gives (docs/decisions.md,
 * "Mission Control metric sources"). Connectors are asked in their order, each source of a connector in
 * turn until one covers the domain. One source per metric, so a series never mixes two sources' scales:
 * of two giving a metric, the higher precedence gives it (a rank tracker's position over Search
 * Console's), else the first. A connector all of whose metrics are already given by sources of at
 * least its precedence is not asked (AccuRanker once SE Ranking covers the domain).
 */
export async function planSources(
  feeding: readonly FeedingConnector[],
  sources: () => SourcesService,
  companyId: string,
  usable: readonly TSource[],
  domain: string,
): Promise<PlannedSource[]> {
  const found: { capability: DomainMetrics; plan: string; read: PlannedSource["read"] }[] = [];
  const givenAtLeast = (metric: DomainMetricKey, precedence: number) =>
    found.some((entry) => entry.capability.metrics.includes(metric) && precedenceOf(entry.capability) >= precedence);
  for (const { key, domainMetrics: capability } of feeding) {
    if (capability.metrics.every((metric) => givenAtLeast(metric, precedenceOf(capability)))) continue;
    for (const source of usable.filter((entry) => entry.name === key)) {
      const location = await capability.locate(sourceAccess(sources, companyId, source.id), domain);
      if (location) {
        found.push({ capability, ...location });
        break;
      }
    }
  }
  // Each metric to the first of the highest precedence that gives it.
  const giver = (metric: DomainMetricKey) =>
    found.reduce<(typeof found)[number] | undefined>(
      (best, entry) =>
        entry.capability.metrics.includes(metric) &&
        (!best || precedenceOf(entry.capability) > precedenceOf(best.capability))
          ? entry
          : best,
      undefined,
    );
  return found.map((entry) => ({
    plan: entry.plan,
    gives: entry.capability.metrics.filter((metric) => giver(metric) === entry),
    read: entry.read,
  }));
}

/** The source of each metric under a plan, so the jobs can tell which series changed source. */
export function metricSources(planned: readonly PlannedSource[]): Partial<Record<DomainMetricKey, string>> {
  const plan: Partial<Record<DomainMetricKey, string>> = {};
  for (const entry of planned) for (const metric of entry.gives) plan[metric] = entry.plan;
  return plan;
}
