import { type DomainMetricKey, shiftDay, type TSource, todayInTimezone } from "@app/core";
import { ahrefsDomainHistory } from "../../../connectors";
import type { AppContext } from "../../../context";
import type { SourcesService } from "../../sources/service";
import { AHREFS_DOMAIN_METRICS, ahrefsValues } from "./ahrefs-key";
import type { DomainCoverage, DomainMetricsProvider, DomainMetricValue } from "./types";

export const CONNECTED_PROVIDER_ID = "sources";
export const CONNECTED_LABEL = "Connected sources";

/** What Search Console gives per day, as the connector names it → the catalogue's key. */
const SEARCH_CONSOLE_METRICS: readonly (readonly [string, DomainMetricKey])[] = [
  ["clicks", "clicks"],
  ["impressions", "impressions"],
  ["ctr", "ctr"],
  ["position", "averagePosition"],
];

/**
 * Search Console fills in its last ~3 days: the latest complete day for every metric of this provider
 * (the slowest source decides, so no metric shows a day still filling in as a fall).
 */
export const CONNECTED_LAG_DAYS = 3;

/** What to connect for a domain nothing covers (the group page shows it in place of numbers). */
export const notCoveredHint = (domain: string) =>
  `Connect Search Console (a property for ${domain}) or Ahrefs to see metrics for ${domain}.`;

/**
 * The Search Console site of a domain, among a source's sites: its domain property (`sc-domain:host`)
 * or its URL-prefix property at the root, with or without www (the domain is stored without it).
 */
export function searchConsoleSiteFor(domain: string, sites: readonly string[]): string | null {
  const wanted = [
    `sc-domain:${domain}`,
    `https://${domain}/`,
    `https://www.${domain}/`,
    `http://${domain}/`,
    `http://www.${domain}/`,
  ];
  for (const candidate of wanted) if (sites.includes(candidate)) return candidate;
  return null;
}

interface Plan {
  searchConsole: { sourceId: string; site: string } | null;
  ahrefs: { sourceId: string } | null;
}

/**
 * The company's connected sources (issue 11 §2): for each domain, the Search Console property that
 * matches it (clicks, impressions, CTR in percent, average position per day) and the company's own
 * Ahrefs source (domain rating, referring domains, keywords, organic traffic, for any domain). Every
 * call goes through the sources service: the connector platform's stored results, quota buckets and
 * error handling (a lost grant marks the source invalid, banner 125). A source waiting to be
 * re-authorised is skipped. GA4 is not used: the GA4 connector cannot tell which property is a domain's
 * (it lists account summaries, not web streams' addresses).
 */
export function connectedProvider(
  ctx: Pick<AppContext, "clock">,
  sources: () => SourcesService,
): DomainMetricsProvider {
  const latestCompleteDay = () => shiftDay(todayInTimezone("UTC", ctx.clock.now()), -CONNECTED_LAG_DAYS);
  const system = (companyId: string) => ({ id: "system", companyId, roleName: "admin" });

  async function plan(companyId: string, domain: string): Promise<Plan> {
    const usable = (await sources().list(system(companyId))).filter((source: TSource) => !source.invalid);
    let searchConsole: Plan["searchConsole"] = null;
    for (const source of usable.filter((entry) => entry.name === "searchConsole")) {
      const sites = await sources().options(system(companyId), source.id, "properties", {});
      const site = searchConsoleSiteFor(
        domain,
        sites.map((option) => option.value),
      );
      if (site) {
        searchConsole = { sourceId: source.id, site };
        break;
      }
    }
    const ahrefs = usable.find((entry) => entry.name === "ahrefsV3");
    return { searchConsole, ahrefs: ahrefs ? { sourceId: ahrefs.id } : null };
  }

  async function searchConsoleValues(
    companyId: string,
    target: NonNullable<Plan["searchConsole"]>,
    from: string,
    to: string,
  ): Promise<DomainMetricValue[]> {
    const service = sources();
    const loaded = await service.load(companyId, target.sourceId);
    const { table } = await service.query(companyId, loaded, {
      type: "searchConsole.performance",
      // Declared keys in order, as the widget data path normalises them (the stored result's key).
      inputs: { dimension: "date", metrics: SEARCH_CONSOLE_METRICS.map(([key]) => key), property: target.site },
      range: { startDate: from, endDate: to },
      // Search Console's days are Pacific; the connector asks by day, the zone only keys the stored result.
      timezone: "UTC",
    });
    const values: DomainMetricValue[] = [];
    for (const row of table.rows) {
      if (typeof row.dimension !== "string") continue;
      table.metrics.forEach((column, index) => {
        const metric = SEARCH_CONSOLE_METRICS.find(([key]) => key === column.key)?.[1];
        const value = row.values[index];
        if (metric && typeof value === "number" && Number.isFinite(value)) {
          values.push({ metric, day: row.dimension as string, value });
        }
      });
    }
    return values;
  }

  return {
    id: CONNECTED_PROVIDER_ID,
    label: CONNECTED_LABEL,
    metrics: [...SEARCH_CONSOLE_METRICS.map(([, metric]) => metric), ...AHREFS_DOMAIN_METRICS],
    latestCompleteDay,

    async coverage(companyId, domain): Promise<DomainCoverage> {
      const found = await plan(companyId, domain);
      if (found.searchConsole || found.ahrefs) return { covered: true };
      return { covered: false, hint: notCoveredHint(domain) };
    },

    async fetch({ companyId, domain, from, to }) {
      const last = [to, latestCompleteDay()].sort()[0];
      if (from > last) return [];
      const found = await plan(companyId, domain);
      const values: DomainMetricValue[] = [];
      if (found.searchConsole) values.push(...(await searchConsoleValues(companyId, found.searchConsole, from, last)));
      if (found.ahrefs) {
        const { sourceId } = found.ahrefs;
        const loaded = await sources().load(companyId, sourceId);
        // Through the sources service's guard: a lost key marks the source invalid, like a widget would.
        const days = await sources().guard(companyId, sourceId, () =>
          ahrefsDomainHistory(loaded.handle, domain, { startDate: from, endDate: last }),
        );
        values.push(...ahrefsValues(days));
      }
      return values;
    },
  };
}
