import {
  DOMAIN_METRIC_KEYS,
  DOMAIN_METRICS,
  type DomainMetricKey,
  daysBetween,
  parseDay,
  shiftDay,
  todayInTimezone,
} from "@app/core";
import type { Clock } from "../../../infra/clock";
import type { DomainMetricsProvider, DomainMetricValue } from "./types";

export const DEMO_PROVIDER_ID = "demo";
export const DEMO_LABEL = "Demo data";

/**
 * A scripted drop for tests and demos: a domain whose normalised host starts with `drop-` (e.g.
 * `drop-acme.com`) has every metric 40 % worse over the last 7 days, up to and including the latest
 * complete day — 40 % lower, or 40 % higher for a metric where lower is better (average position).
 * Its 7-day changes then show as bad, and its clicks and sessions alerts fire on every day: the drop
 * covers the whole 7-day window, so the weekday profile cancels out of the comparison. Over 5 days it did
 * not always — the two undropped days of the window could be its busiest, and the fall stayed under the
 * default rules' 20 % on about 6 % of days (drop-live.com with 29 Nov 2026 as the latest day:
 * clicks −19.2 %). The window moves with the clock: values are a function of "today", and the daily
 * snapshot rewrites enough days to follow it.
 */
export const DEMO_DROP_PREFIX = "drop-";
export const DEMO_DROP_DAYS = 7;
export const DEMO_DROP_FACTOR = 0.4;

const WEEK_PROFILE = [0.62, 1.04, 1.08, 1.07, 1.03, 0.94, 0.66]; // Sunday first: flows dip at weekends.

/** FNV-1a: a stable 32-bit hash, so the same domain always gets the same series, on every machine. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

/** A number in [0, 1) drawn from the text. */
function unit(text: string): number {
  return hash(text) / 2 ** 32;
}

/** A slow wave of the given period (days), phase drawn from the seed: the drift of a stock or a trend. */
function wave(seed: string, day: number, periodDays: number): number {
  return Math.sin((2 * Math.PI * (day + unit(`${seed}|phase`) * periodDays)) / periodDays);
}

const round = (value: number, decimals: number) => Number(value.toFixed(decimals));

/** Daily amount of each flow for a mid-sized site (scaled by the domain's size), CTR in percent. */
const FLOW_BASE: Partial<Record<DomainMetricKey, number>> = {
  clicks: 180,
  impressions: 6000,
  sessions: 420,
  users: 330,
  conversions: 9,
  organicTraffic: 240,
};

/** The value before any scripted drop: what a healthy domain of this name looks like on `day`. */
function baseValue(domain: string, metric: DomainMetricKey, day: string): number {
  const t = daysBetween("1970-01-01", day);
  const seed = `${domain}|${metric}`;
  const size = 0.3 + 2.7 * unit(`${domain}|size`);
  const noise = unit(`${seed}|${day}`) - 0.5; // −0.5 … 0.5, fixed per day
  switch (metric) {
    case "domainRating":
      // A drift of ±1.5 over five months: real domain ratings move a point in weeks, not days, so a
      // healthy demo domain does not trip the "domain rating −1" rule.
      return Math.min(100, Math.max(0, round(15 + 60 * unit(seed) + 1.5 * wave(seed, t, 150) + 0.2 * noise, 1)));
    case "referringDomains":
      // ±6 % over four months: at most about 2 % a week, under the "referring domains −5 %" rule.
      return Math.round((60 + 1500 * size * unit(seed)) * (1 + 0.06 * wave(seed, t, 120) + 0.01 * noise));
    case "rankedKeywords":
      return rankedKeywords(domain, t, size, noise);
    case "keywordsTop3":
      return Math.round(rankedKeywords(domain, t, size, 0) * (0.04 + 0.01 * wave(seed, t, 90)) * (1 + 0.03 * noise));
    case "keywordsTop10":
      return Math.round(rankedKeywords(domain, t, size, 0) * (0.17 + 0.03 * wave(seed, t, 90)) * (1 + 0.03 * noise));
    case "averagePosition":
      return Math.max(1, round((8 + 25 * unit(seed)) * (1 + 0.15 * wave(seed, t, 100)) + 0.4 * noise, 2));
    case "ctr":
      return round((2 + 3 * unit(seed)) * (1 + 0.1 * wave(seed, t, 60) + 0.1 * noise), 2);
    default: {
      const weekday = parseDay(day).getDay();
      const daily = (FLOW_BASE[metric] ?? 100) * size * WEEK_PROFILE[weekday];
      return Math.max(0, Math.round(daily * (1 + 0.15 * wave(seed, t, 75) + 0.16 * noise)));
    }
  }
}

function rankedKeywords(domain: string, t: number, size: number, noise: number): number {
  const seed = `${domain}|rankedKeywords`;
  return Math.round((200 + 900 * size * unit(seed)) * (1 + 0.2 * wave(seed, t, 110) + 0.02 * noise));
}

/**
 * The demo value of one metric on one day, seen when `latestDay` is the latest complete day: a pure
 * function of its arguments (tests compute the expected series with it).
 */
export function demoValue(domain: string, metric: DomainMetricKey, day: string, latestDay: string): number {
  const value = baseValue(domain, metric, day);
  const dropping =
    domain.startsWith(DEMO_DROP_PREFIX) && day > shiftDay(latestDay, -DEMO_DROP_DAYS) && day <= latestDay;
  if (!dropping) return value;
  const definition = DOMAIN_METRICS[metric];
  const factor = definition.lowerIsBetter ? 1 + DEMO_DROP_FACTOR : 1 - DEMO_DROP_FACTOR;
  return Number.isInteger(value) ? Math.round(value * factor) : round(value * factor, 2);
}

/**
 * Demo data (docs/decisions.md, "Mission Control metric sources"): believable daily values for any domain, deterministic from its name, so a
 * new account sees a working group page before connecting anything, and tests get stable numbers.
 * Flows (clicks, sessions…) dip at weekends; stocks (domain rating, referring domains, position) drift
 * slowly, so the 7- and 30-day changes differ. Always labelled as demo data.
 */
export function demoProvider(clock: Clock): DomainMetricsProvider {
  // UTC days: the demo has no time zone of its own, and yesterday is the latest complete one.
  const latestCompleteDay = () => shiftDay(todayInTimezone("UTC", clock.now()), -1);
  return {
    id: DEMO_PROVIDER_ID,
    label: DEMO_LABEL,
    metrics: DOMAIN_METRIC_KEYS,
    latestCompleteDay,
    async fetch({ domain, from, to }) {
      const latest = latestCompleteDay();
      const values: DomainMetricValue[] = [];
      // Nothing after the latest complete day: a real provider has no such day yet either.
      for (let day = from; day <= to && day <= latest; day = shiftDay(day, 1)) {
        for (const metric of DOMAIN_METRIC_KEYS)
          values.push({ metric, day, value: demoValue(domain, metric, day, latest) });
      }
      return values;
    },
  };
}
