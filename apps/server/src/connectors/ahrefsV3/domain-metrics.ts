import { CAMPAIGN_SOURCE_MESSAGES, type DayRange, type DomainMetricKey, shiftDay, todayInTimezone } from "@app/core";
import type { DomainMetrics, DomainMetricValue } from "../kit/domain-metrics";
import type { ConnectorRuntime, SourceHandle } from "../types";
import type { AhrefsDomainDay } from ".";

/** The catalogue metrics Ahrefs' Site Explorer history gives for any domain. */
export const AHREFS_DOMAIN_METRICS: readonly DomainMetricKey[] = [
  "domainRating",
  "referringDomains",
  "rankedKeywords",
  "keywordsTop3",
  "keywordsTop10",
  "organicTraffic",
];

/**
 * Ahrefs' organic traffic is an estimate of a month's visits, given for each day; the catalogue's
 * organicTraffic is a daily flow (summed over a window), so a day gets a thirtieth of the estimate.
 * Percent changes are the same either way; the shown amount then reads as visits per day.
 */
const DAYS_PER_MONTH = 30;

/** Ahrefs' days as catalogue values; a metric Ahrefs has no number for that day is left out. */
export function ahrefsValues(days: readonly AhrefsDomainDay[]): DomainMetricValue[] {
  const values: DomainMetricValue[] = [];
  const put = (metric: DomainMetricKey, day: string, value: number | undefined) => {
    if (value !== undefined) values.push({ metric, day, value });
  };
  for (const point of days) {
    put("domainRating", point.day, point.domainRating);
    put("referringDomains", point.day, point.refdomains);
    put(
      "organicTraffic",
      point.day,
      point.orgTraffic === undefined ? undefined : Math.round(point.orgTraffic / DAYS_PER_MONTH),
    );
    const { top3, top4to10, top11plus } = point;
    put("keywordsTop3", point.day, top3);
    if (top3 !== undefined && top4to10 !== undefined) {
      put("keywordsTop10", point.day, top3 + top4to10);
      if (top11plus !== undefined) put("rankedKeywords", point.day, top3 + top4to10 + top11plus);
    }
  }
  return values;
}

/** Yesterday in UTC: Ahrefs dates its history in UTC days, and the snapshot re-fetches the last week anyway. */
export const ahrefsLatestDay = (now: Date) => shiftDay(todayInTimezone("UTC", now), -1);

type DomainHistory = (source: SourceHandle, target: string, range: DayRange) => Promise<AhrefsDomainDay[]>;

/** The id of the server key's metrics source (the contract's CAMPAIGN_METRICS_SOURCES) and what it is called. */
const SERVER_KEY_ID = "ahrefs";
const LABEL = "Ahrefs";

/**
 * Ahrefs' domain metrics (docs/decisions.md, "Mission Control metric sources"): a company's Ahrefs
 * source covers any domain (domain rating, referring domains, keywords, organic traffic), read through
 * the source's guard, so a lost key marks the source invalid like a widget would. The server's own key
 * (MC_AHREFS_KEY) is a metrics source of its own: any domain, no customer connection, so groups keep
 * working after the trial.
 */
export function ahrefsDomainMetrics(history: DomainHistory): DomainMetrics {
  return {
    order: 3,
    metrics: AHREFS_DOMAIN_METRICS,
    lagDays: 1,
    hint: LABEL,
    async locate(source, domain) {
      return {
        plan: `ahrefs:${source.id}`,
        read: async (range) => ahrefsValues(await source.call((handle) => history(handle, domain, range))),
      };
    },
    serverKey: {
      id: SERVER_KEY_ID,
      label: LABEL,
      notConfigured: CAMPAIGN_SOURCE_MESSAGES.ahrefsNotConfigured,
      /**
       * Goes through the connector's client (per-key limit, quota buckets, error classification) with a
       * stand-in source of the server's own; its values are stored in domain_metric_days, so the
       * connector's result store is not used.
       */
      provider(server) {
        const settings = server.config.providers.ahrefs.serverKey;
        if (!settings) return null;
        // One runtime for the provider's life: the connector keeps one client (and its limits) per runtime.
        const runtime: ConnectorRuntime = {
          providers: { ...server.config.providers, ahrefs: { apiUrl: settings.apiUrl, serverKey: settings } },
          counters: server.counters,
          outboundAllowHosts: server.config.outboundAllowHosts,
          logger: server.logger,
        };
        const handle = (companyId: string): SourceHandle => ({
          id: "mission-control-ahrefs",
          companyId,
          connector: "ahrefsV3",
          account: null,
          credentials: { token: settings.key },
          properties: [],
          readFile: async () => null,
          // An API key is never refreshed.
          saveCredentials: async () => undefined,
          runtime,
        });
        const latestCompleteDay = () => ahrefsLatestDay(server.now());
        return {
          id: SERVER_KEY_ID,
          label: LABEL,
          metrics: AHREFS_DOMAIN_METRICS,
          latestCompleteDay,
          async fetch({ companyId, domain, from, to }) {
            const last = [to, latestCompleteDay()].sort()[0];
            if (from > last) return [];
            return ahrefsValues(await history(handle(companyId), domain, { startDate: from, endDate: last }));
          },
        };
      },
    },
  };
}
