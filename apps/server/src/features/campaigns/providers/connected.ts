import { type DomainMetricKey, shiftDay, type TSource, todayInTimezone } from "@app/core";
import { LRUCache } from "lru-cache";
import { accurankerDomains, ahrefsDomainHistory, ga4WebProperties, serankingProjects } from "../../../connectors";
import type { AppContext } from "../../../context";
import type { SourcesService } from "../../sources/service";
import { AHREFS_DOMAIN_METRICS, ahrefsValues } from "./ahrefs-key";
import type { DomainCoverage, DomainMetricsProvider, DomainMetricValue } from "./types";

export const CONNECTED_PROVIDER_ID = "sources";
export const CONNECTED_LABEL = "Connected sources";

/** A connector's column key → the catalogue's key, for one widget query of that connector. */
type ColumnMap = readonly (readonly [string, DomainMetricKey])[];

/** What Search Console gives per day, as the connector names it → the catalogue's key. */
const SEARCH_CONSOLE_METRICS: ColumnMap = [
  ["clicks", "clicks"],
  ["impressions", "impressions"],
  ["ctr", "ctr"],
  ["position", "averagePosition"],
];

/**
 * What GA4 gives per day. `users` is `activeUsers`: the number GA4's own reports call "Users" (since
 * 2023), so a client comparing with Google Analytics sees the same figure; `totalUsers` also counts
 * users who only fired a background event. `conversions` is `keyEvents`: Google renamed conversions to
 * key events in 2024 and the Data API's `conversions` metric is deprecated.
 */
const GA4_METRICS: ColumnMap = [
  ["sessions", "sessions"],
  ["activeUsers", "users"],
  ["keyEvents", "conversions"],
];

/** What a rank tracker's rankings table gives per checked day (connectors/rank-tracking.ts). */
const RANK_METRICS: ColumnMap = [
  ["averagePosition", "averagePosition"],
  ["top3", "keywordsTop3"],
  ["top10", "keywordsTop10"],
];
const RANK_METRIC_KEYS = new Set(RANK_METRICS.map(([, metric]) => metric));

/**
 * Search Console fills in its last ~3 days: the latest complete day for every metric of this provider
 * (the slowest source decides, so no metric shows a day still filling in as a fall). GA4 (complete
 * after about a day), Ahrefs and the rank trackers (a day once checked) are earlier; they share it.
 */
export const CONNECTED_LAG_DAYS = 3;

/** What to connect for a domain nothing covers (the group page shows it in place of numbers). */
export const notCoveredHint = (domain: string) =>
  `Connect Search Console, Google Analytics 4, Ahrefs or a rank tracker for ${domain}.`;

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
 * The host a site address stands for, without `www.` (as domains are stored): `https://www.acme.com`,
 * `acme.com/` and `www.acme.com` are all acme.com. An address with a path (`acme.com/blog`) is a
 * section, not the domain: null, like anything that is not an address.
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

type RankTracker =
  | { connector: "seranking"; sourceId: string; project: string; searchEngine: string }
  | { connector: "accuranker"; sourceId: string; project: string };

interface Plan {
  searchConsole: { sourceId: string; site: string } | null;
  analytics: { sourceId: string; account: string; property: string } | null;
  ahrefs: { sourceId: string } | null;
  rankTracker: RankTracker | null;
}

/** The rank trackers asked, in this order: the first whose project tracks the domain covers it. */
const RANK_TRACKERS = ["seranking", "accuranker"] as const;

/**
 * Which source gives each metric of a domain under a plan (the same precedence as `fetch`: a rank
 * tracker's rank metrics over the others'), so the jobs can tell which series changed source.
 */
function metricSources(found: Plan): Partial<Record<DomainMetricKey, string>> {
  const plan: Partial<Record<DomainMetricKey, string>> = {};
  const give = (metrics: readonly DomainMetricKey[], source: string) => {
    for (const metric of metrics) plan[metric] = source;
  };
  if (found.searchConsole) {
    give(
      SEARCH_CONSOLE_METRICS.map(([, metric]) => metric),
      `searchConsole:${found.searchConsole.sourceId}:${found.searchConsole.site}`,
    );
  }
  if (found.analytics) {
    give(
      GA4_METRICS.map(([, metric]) => metric),
      `ga4:${found.analytics.sourceId}:${found.analytics.property}`,
    );
  }
  if (found.ahrefs) {
    const { ahrefs } = found;
    give(
      AHREFS_DOMAIN_METRICS.filter((metric) => !(found.rankTracker && RANK_METRIC_KEYS.has(metric))),
      `ahrefs:${ahrefs.sourceId}`,
    );
  }
  if (found.rankTracker) {
    const tracker = found.rankTracker;
    give(
      RANK_METRICS.map(([, metric]) => metric),
      `${tracker.connector}:${tracker.sourceId}:${tracker.project}:${"searchEngine" in tracker ? tracker.searchEngine : ""}`,
    );
  }
  // Search Console's position is dropped under a tracker (see fetch): the tracker's entry above wins.
  return plan;
}

/**
 * The company's connected sources (docs/decisions.md, "Mission Control metric sources"): for each domain, the Search Console property that
 * matches it (clicks, impressions, CTR in percent, average position), the GA4 property whose web
 * stream is the domain (sessions, users, conversions), a rank tracker's project for it (SE Ranking or
 * AccuRanker: average position and keywords in the top 3/10 of the tracked keywords) and the company's
 * own Ahrefs source (domain rating, referring domains, keywords, organic traffic, for any domain).
 *
 * One source per metric, so a series never mixes two sources' scales: a rank tracker, when it covers the
 * domain, gives average position and the top-3/top-10 counts (the agency's chosen keywords, a fixed set
 * whose average moves only when rankings move; Search Console's average is weighted by impressions over
 * whatever queries showed the site, so new long-tail queries "worsen" it), and Search Console and Ahrefs
 * then give their other metrics only.
 *
 * Every call goes through the sources service: the connector platform's stored results, quota buckets
 * and error handling (a lost grant marks the source invalid, banner 125). A source waiting to be
 * re-authorised is skipped. A failing source fails the whole fetch (the job retries; nothing stored is
 * touched).
 */
export function connectedProvider(
  ctx: Pick<AppContext, "clock">,
  sources: () => SourcesService,
): DomainMetricsProvider {
  const latestCompleteDay = () => shiftDay(todayInTimezone("UTC", ctx.clock.now()), -CONNECTED_LAG_DAYS);
  const system = (companyId: string) => ({ id: "system", companyId, roleName: "admin" });

  async function searchConsoleFor(companyId: string, usable: TSource[], domain: string) {
    for (const source of usable.filter((entry) => entry.name === "searchConsole")) {
      const sites = await sources().options(system(companyId), source.id, "properties", {});
      const site = searchConsoleSiteFor(
        domain,
        sites.map((option) => option.value),
      );
      if (site) return { sourceId: source.id, site };
    }
    return null;
  }

  /** The first GA4 property (in Google's account order) with a web stream at the domain. */
  async function analyticsFor(companyId: string, usable: TSource[], domain: string) {
    for (const source of usable.filter((entry) => entry.name === "googleAnalytics")) {
      const loaded = await sources().load(companyId, source.id);
      const properties = await sources().guard(companyId, source.id, () => ga4WebProperties(loaded.handle));
      const found = properties.find((entry) => entry.uris.some((uri) => siteHost(uri) === domain));
      if (found) return { sourceId: source.id, account: found.account, property: found.property };
    }
    return null;
  }

  async function rankTrackerFor(companyId: string, usable: TSource[], domain: string): Promise<RankTracker | null> {
    for (const connector of RANK_TRACKERS) {
      for (const source of usable.filter((entry) => entry.name === connector)) {
        const loaded = await sources().load(companyId, source.id);
        if (connector === "seranking") {
          const projects = await sources().guard(companyId, source.id, () => serankingProjects(loaded.handle));
          const project = projects.find((entry) => siteHost(entry.address) === domain);
          if (!project) continue;
          // A project ranks on several search engines; the first (SE Ranking lists the main one first) counts.
          const engines = await sources().options(system(companyId), source.id, "searchEngines", {
            property: project.id,
          });
          const engine = engines[0]?.value;
          if (engine) return { connector, sourceId: source.id, project: project.id, searchEngine: engine };
        } else {
          const domains = await sources().guard(companyId, source.id, () => accurankerDomains(loaded.handle));
          const project = domains.find((entry) => siteHost(entry.domain) === domain);
          if (project) return { connector, sourceId: source.id, project: project.id };
        }
      }
    }
    return null;
  }

  /**
   * A job asks coverage and then fetch for each domain: the plan is kept for 10 minutes, keyed by the
   * usable sources too, so a source connected, removed or invalidated meanwhile makes a new one at once.
   */
  const plans = new LRUCache<string, Promise<Plan>>({ max: 5000, ttl: 600_000 });

  async function plan(companyId: string, domain: string): Promise<Plan> {
    const usable = (await sources().list(system(companyId))).filter((source: TSource) => !source.invalid);
    const key = JSON.stringify([companyId, domain, usable.map((source) => source.id).sort()]);
    const cached = plans.get(key);
    if (cached) return cached;
    const ahrefs = usable.find((entry) => entry.name === "ahrefsV3");
    const made = (async (): Promise<Plan> => ({
      searchConsole: await searchConsoleFor(companyId, usable, domain),
      analytics: await analyticsFor(companyId, usable, domain),
      ahrefs: ahrefs ? { sourceId: ahrefs.id } : null,
      rankTracker: await rankTrackerFor(companyId, usable, domain),
    }))();
    plans.set(key, made);
    // A failure is not kept: the job's retry asks again.
    made.catch(() => plans.delete(key));
    return made;
  }

  /** One widget query of a source by date, through the stored results, as catalogue values. */
  async function tableValues(
    companyId: string,
    sourceId: string,
    type: string,
    // Declared keys in sorted order without empty ones, as the widget data path normalises them (the stored result's key).
    inputs: Record<string, unknown>,
    columns: ColumnMap,
    from: string,
    to: string,
  ): Promise<DomainMetricValue[]> {
    const service = sources();
    const loaded = await service.load(companyId, sourceId);
    const { table } = await service.query(companyId, loaded, {
      type,
      inputs,
      range: { startDate: from, endDate: to },
      // The connectors ask by day; the zone only keys the stored result.
      timezone: "UTC",
    });
    const values: DomainMetricValue[] = [];
    for (const row of table.rows) {
      if (typeof row.dimension !== "string") continue;
      table.metrics.forEach((column, index) => {
        const metric = columns.find(([key]) => key === column.key)?.[1];
        const value = row.values[index];
        if (metric && typeof value === "number" && Number.isFinite(value)) {
          values.push({ metric, day: row.dimension as string, value });
        }
      });
    }
    return values;
  }

  const keys = (columns: ColumnMap) => columns.map(([key]) => key);

  return {
    id: CONNECTED_PROVIDER_ID,
    label: CONNECTED_LABEL,
    // The group page's column order: Search Console, GA4, Ahrefs (whose top-3/10 counts a tracker also gives).
    metrics: [
      ...SEARCH_CONSOLE_METRICS.map(([, metric]) => metric),
      ...GA4_METRICS.map(([, metric]) => metric),
      ...AHREFS_DOMAIN_METRICS,
    ],
    latestCompleteDay,

    async coverage(companyId, domain): Promise<DomainCoverage> {
      const found = await plan(companyId, domain);
      if (found.searchConsole || found.analytics || found.ahrefs || found.rankTracker) {
        return { covered: true, plan: metricSources(found) };
      }
      return { covered: false, hint: notCoveredHint(domain) };
    },

    async fetch({ companyId, domain, from, to }) {
      const last = [to, latestCompleteDay()].sort()[0];
      if (from > last) return [];
      const found = await plan(companyId, domain);
      // With a rank tracker, the rank metrics are its alone (see above).
      const others = (values: DomainMetricValue[]) =>
        found.rankTracker ? values.filter((value) => !RANK_METRIC_KEYS.has(value.metric)) : values;
      const values: DomainMetricValue[] = [];
      if (found.searchConsole) {
        const { sourceId, site } = found.searchConsole;
        const inputs = { dimension: "date", metrics: keys(SEARCH_CONSOLE_METRICS), property: site };
        values.push(
          ...others(
            await tableValues(
              companyId,
              sourceId,
              "searchConsole.performance",
              inputs,
              SEARCH_CONSOLE_METRICS,
              from,
              last,
            ),
          ),
        );
      }
      if (found.analytics) {
        const { sourceId, account, property } = found.analytics;
        const inputs = { dimension: "date", metrics: keys(GA4_METRICS), profile: property, property: account };
        values.push(
          ...(await tableValues(companyId, sourceId, "googleAnalytics.ga4", inputs, GA4_METRICS, from, last)),
        );
      }
      if (found.ahrefs) {
        const { sourceId } = found.ahrefs;
        const loaded = await sources().load(companyId, sourceId);
        // Through the sources service's guard: a lost key marks the source invalid, like a widget would.
        const days = await sources().guard(companyId, sourceId, () =>
          ahrefsDomainHistory(loaded.handle, domain, { startDate: from, endDate: last }),
        );
        values.push(...others(ahrefsValues(days)));
      }
      if (found.rankTracker) {
        const tracker = found.rankTracker;
        const inputs =
          tracker.connector === "seranking"
            ? {
                dimension: "date",
                metrics: keys(RANK_METRICS),
                property: tracker.project,
                searchEngine: tracker.searchEngine,
              }
            : { dimension: "date", metrics: keys(RANK_METRICS), property: tracker.project };
        const type = tracker.connector === "seranking" ? "seranking.rankings" : "accuranker.rankings";
        values.push(...(await tableValues(companyId, tracker.sourceId, type, inputs, RANK_METRICS, from, last)));
      }
      return values;
    },
  };
}
