import { shiftDay, type TSource, todayInTimezone } from "@app/core";
import { LRUCache } from "lru-cache";
import { DOMAIN_METRICS_CONNECTORS } from "../../../connectors";
import type { AppContext } from "../../../context";
import type { SourcesService } from "../../sources/service";
import {
  type FeedingConnector,
  hintOf,
  lagOf,
  metricSources,
  metricsOf,
  type PlannedSource,
  planSources,
} from "./connected-plan";
import type { DomainCoverage, DomainMetricsProvider, DomainMetricValue } from "./types";

export const CONNECTED_PROVIDER_ID = "sources";
export const CONNECTED_LABEL = "Connected sources";

/**
 * Days the slowest connector is still filling in (Search Console's ~3): the latest complete day for every
 * metric of this provider, so no metric shows a day still filling in as a fall.
 */
export const CONNECTED_LAG_DAYS = lagOf(DOMAIN_METRICS_CONNECTORS);

/** What to connect for a domain nothing covers (the group page shows it in place of numbers). */
export const notCoveredHint = (domain: string, feeding: readonly FeedingConnector[] = DOMAIN_METRICS_CONNECTORS) =>
  `Connect ${hintOf(feeding)} for ${domain}.`;

/**
 * The company's connected sources (docs/decisions.md, "Mission Control metric sources"): for each domain,
 * the sources of the connectors that declare domain metrics (`Connector.domainMetrics`, in each
 * connector's folder) and cover it — a Search Console property, a GA4 web stream, a rank tracker's
 * project, the company's Ahrefs source — one source per metric (connected-plan.ts).
 *
 * Every call goes through the sources service: the connector platform's stored results, quota buckets
 * and error handling (a lost grant marks the source invalid, banner 125). A source waiting to be
 * re-authorised is skipped. A failing source fails the whole fetch (the job retries; nothing stored is
 * touched). `feeding` is the registry's list; a test may give its own.
 */
export function connectedProvider(
  ctx: Pick<AppContext, "clock">,
  sources: () => SourcesService,
  feeding: readonly FeedingConnector[] = DOMAIN_METRICS_CONNECTORS,
): DomainMetricsProvider {
  const lagDays = lagOf(feeding);
  const latestCompleteDay = () => shiftDay(todayInTimezone("UTC", ctx.clock.now()), -lagDays);
  const system = (companyId: string) => ({ id: "system", companyId, roleName: "admin" });

  /**
   * A job asks coverage and then fetch for each domain: the plan is kept for 10 minutes, keyed by the
   * usable sources too, so a source connected, removed or invalidated meanwhile makes a new one at once.
   */
  const plans = new LRUCache<string, Promise<PlannedSource[]>>({ max: 5000, ttl: 600_000 });

  async function plan(companyId: string, domain: string): Promise<PlannedSource[]> {
    const usable = (await sources().list(system(companyId))).filter((source: TSource) => !source.invalid);
    const key = JSON.stringify([companyId, domain, usable.map((source) => source.id).sort()]);
    const cached = plans.get(key);
    if (cached) return cached;
    const made = planSources(feeding, sources, companyId, usable, domain);
    plans.set(key, made);
    // A failure is not kept: the job's retry asks again.
    made.catch(() => plans.delete(key));
    return made;
  }

  return {
    id: CONNECTED_PROVIDER_ID,
    label: CONNECTED_LABEL,
    // The group page's column order: the connectors' order (a metric two give keeps the first one's place).
    metrics: metricsOf(feeding),
    latestCompleteDay,

    async coverage(companyId, domain): Promise<DomainCoverage> {
      const found = await plan(companyId, domain);
      if (found.length > 0) return { covered: true, plan: metricSources(found) };
      return { covered: false, hint: notCoveredHint(domain, feeding) };
    },

    async fetch({ companyId, domain, from, to }) {
      const last = [to, latestCompleteDay()].sort()[0];
      if (from > last) return [];
      const values: DomainMetricValue[] = [];
      for (const source of await plan(companyId, domain)) {
        // Only the metrics this source gives under the plan (a tracker's position, not Search Console's).
        const read = await source.read({ startDate: from, endDate: last });
        values.push(...read.filter((value) => source.gives.includes(value.metric)));
      }
      return values;
    },
  };
}
