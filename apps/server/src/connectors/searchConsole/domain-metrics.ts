import {
  type ColumnMap,
  columnKeys,
  columnMetrics,
  type DomainMetrics,
  tableDomainValues,
} from "../kit/domain-metrics";

/** What Search Console gives per day, as the connector names it → the catalogue's key. */
const COLUMNS: ColumnMap = [
  ["clicks", "clicks"],
  ["impressions", "impressions"],
  ["ctr", "ctr"],
  ["position", "averagePosition"],
];

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

/**
 * Mission Control's Search Console (docs/decisions.md, "Mission Control metric sources"): the site that
 * matches the domain (clicks, impressions, CTR in percent, average position), read by day through the
 * widget query `type`. Search Console fills in its last ~3 days, the slowest of the connected sources.
 */
export function searchConsoleDomainMetrics(type: string): DomainMetrics {
  return {
    order: 1,
    metrics: columnMetrics(COLUMNS),
    lagDays: 3,
    hint: "Search Console",
    async locate(source, domain) {
      const sites = await source.options("properties", {});
      const site = searchConsoleSiteFor(
        domain,
        sites.map((option) => option.value),
      );
      if (!site) return null;
      const inputs = { dimension: "date", metrics: columnKeys(COLUMNS), property: site };
      return {
        plan: `searchConsole:${source.id}:${site}`,
        read: async (range) => tableDomainValues(await source.query(type, inputs, range), COLUMNS),
      };
    },
  };
}
