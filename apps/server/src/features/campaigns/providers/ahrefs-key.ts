import { type DomainMetricKey, shiftDay, todayInTimezone } from "@app/core";
import {
  type AhrefsDomainDay,
  ahrefsDomainHistory,
  type ConnectorRuntime,
  type SourceHandle,
} from "../../../connectors";
import type { AppContext } from "../../../context";
import type { DomainMetricsProvider, DomainMetricValue } from "./types";

export const AHREFS_KEY_PROVIDER_ID = "ahrefs";
export const AHREFS_KEY_LABEL = "Ahrefs";

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

/**
 * The server's Ahrefs key (MC_AHREFS_KEY; docs/decisions.md, "Mission Control metric sources"): any domain, no customer connection, so groups
 * keep working after the trial. Null when the server has no key (the source is then not offered). Goes
 * through the Ahrefs connector's client (per-key limit, quota buckets, error classification) as a
 * source of the server's own; its values are stored in domain_metric_days, so the connector's result
 * store is not used.
 */
export function ahrefsKeyProvider(
  ctx: Pick<AppContext, "clock" | "config" | "rateLimits" | "logger">,
): DomainMetricsProvider | null {
  const settings = ctx.config.missionControlAhrefs;
  if (!settings) return null;
  // One runtime for the provider's life: the connector keeps one client (and its limits) per runtime.
  const runtime: ConnectorRuntime = {
    providers: { ...ctx.config.providers, ahrefs: { apiUrl: settings.apiUrl } },
    counters: ctx.rateLimits,
    outboundAllowHosts: ctx.config.outboundAllowHosts,
    logger: ctx.logger,
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
  const latestCompleteDay = () => ahrefsLatestDay(ctx.clock.now());
  return {
    id: AHREFS_KEY_PROVIDER_ID,
    label: AHREFS_KEY_LABEL,
    metrics: AHREFS_DOMAIN_METRICS,
    latestCompleteDay,
    async fetch({ companyId, domain, from, to }) {
      const last = [to, latestCompleteDay()].sort()[0];
      if (from > last) return [];
      return ahrefsValues(await ahrefsDomainHistory(handle(companyId), domain, { startDate: from, endDate: last }));
    },
  };
}
