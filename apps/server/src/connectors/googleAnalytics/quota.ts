import { z } from "zod";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import { ProviderError } from "../http/errors";
import { untilNextHour, untilPacificMidnight } from "../http/google-reset";

/**
 * GA4's token quotas, read from the `propertyQuota` every report answer carries when asked
 * (`returnPropertyQuota: true`; docs/connectors.md, "Google Analytics 4"). Google refuses every request
 * to a property once any of its quotas is used up, so the product stops asking a little before that:
 * when the hourly or daily tokens left fall under a threshold, the property is held until Google's reset
 * and widgets are served their stored numbers with the quota notice. The holds live in the counters
 * every process shares (`ctx.rateLimits`), so no process keeps spending what another saw running out.
 *
 * Sources: https://developers.google.com/analytics/devguides/reporting/data/v1/quotas (daily quotas
 * refresh at midnight Pacific time, hourly ones within the hour; Core and Realtime are separate pools),
 * https://developers.google.com/analytics/devguides/reporting/data/v1/rest/v1beta/PropertyQuota.
 */

/** proto3 JSON leaves out zero values: an absent `remaining` means none left. */
const ZQuotaStatus = z.object({ consumed: z.number().default(0), remaining: z.number().default(0) });
export type QuotaStatus = z.infer<typeof ZQuotaStatus>;

export const ZPropertyQuota = z.object({
  tokensPerDay: ZQuotaStatus.optional(),
  tokensPerHour: ZQuotaStatus.optional(),
  concurrentRequests: ZQuotaStatus.optional(),
  serverErrorsPerProjectPerHour: ZQuotaStatus.optional(),
  potentiallyThresholdedRequestsPerHour: ZQuotaStatus.optional(),
  tokensPerProjectPerHour: ZQuotaStatus.optional(),
});
export type PropertyQuota = z.infer<typeof ZPropertyQuota>;

/** Core methods (runReport, metadata) and Realtime ones spend separate allowances. */
export type QuotaCategory = "core" | "realtime";

/**
 * Interactive requests stop under 5 % of an allowance (at least 50 tokens, a few reports' worth, so a
 * small allowance is not run to the last token). Pre-warm, which only saves a later wait, already stops
 * under 20 %: the rest is kept for people looking at dashboards.
 */
export const HOLD_SHARE = 0.05;
export const HOLD_FLOOR = 50;
export const RESERVE_SHARE = 0.2;

const HOUR_MS = 3_600_000;

const below = (status: QuotaStatus | undefined, share: number, floor: number) =>
  status !== undefined && status.remaining < Math.max(floor, share * (status.consumed + status.remaining));

type Period = "hour" | "day";
type Level = "hold" | "reserve";
const key = (level: Level, category: QuotaCategory, property: string, period: Period) =>
  `provider:ga4:${level}:${category}:${property}:${period}`;
const windowOf = (period: Period, now: number) => (period === "hour" ? untilNextHour(now) : untilPacificMidnight(now));

/**
 * Records what an answer's `propertyQuota` says: a hold (or a pre-warm reserve) until the reset of each
 * allowance that is running out. A window that is already set keeps its end (the counters' window starts
 * at the first hit), which is the same reset.
 */
export async function notePropertyQuota(
  counters: RateLimitStore,
  property: string,
  category: QuotaCategory,
  quota: PropertyQuota | undefined,
  now: number,
): Promise<void> {
  if (!quota) return;
  const periods: [Period, (QuotaStatus | undefined)[]][] = [
    ["hour", [quota.tokensPerHour, quota.tokensPerProjectPerHour]],
    ["day", [quota.tokensPerDay]],
  ];
  for (const [period, statuses] of periods) {
    if (statuses.some((status) => below(status, HOLD_SHARE, HOLD_FLOOR))) {
      await counters.hit(key("hold", category, property, period), windowOf(period, now));
    }
    if (statuses.some((status) => below(status, RESERVE_SHARE, HOLD_FLOOR))) {
      await counters.hit(key("reserve", category, property, period), windowOf(period, now));
    }
  }
}

/**
 * Holds a property whose allowance Google reported used up (RESOURCE_EXHAUSTED) until the reset it
 * implies, for every process: the client's own wait only holds the process that saw the refusal.
 */
export async function holdExhaustedProperty(
  counters: RateLimitStore,
  property: string,
  category: QuotaCategory,
  retryAfterMs: number,
): Promise<void> {
  const period: Period = retryAfterMs > HOUR_MS ? "day" : "hour";
  await counters.hit(key("hold", category, property, period), retryAfterMs);
}

/** The counters keys of a property's holds (for operators lifting one by hand, and for tests). */
export function propertyHoldKeys(property: string, category: QuotaCategory): string[] {
  return (["hold", "reserve"] as const).flatMap((level) =>
    (["hour", "day"] as const).map((period) => key(level, category, property, period)),
  );
}

/** Whether a property may be asked now: `open`, `reserve` (interactive only, not pre-warm) or `held`. */
export async function propertyQuotaState(
  counters: RateLimitStore,
  property: string,
  category: QuotaCategory,
): Promise<{ state: "open" | "reserve" | "held"; period: Period | null }> {
  for (const level of ["hold", "reserve"] as const) {
    for (const period of ["day", "hour"] as const) {
      if ((await counters.peek(key(level, category, property, period))) > 0) {
        return { state: level === "hold" ? "held" : "reserve", period };
      }
    }
  }
  return { state: "open", period: null };
}

/** Throws the quota failure for a held property, before any request goes out. */
export async function assertPropertyOpen(
  counters: RateLimitStore,
  property: string,
  category: QuotaCategory,
  now: number,
): Promise<void> {
  const { state, period } = await propertyQuotaState(counters, property, category);
  if (state !== "held" || period === null) return;
  throw new ProviderError(
    "ga4",
    "quota",
    `property ${property}: ${period === "day" ? "daily" : "hourly"} tokens nearly used up, held until Google's reset`,
    { retryAfterMs: windowOf(period, now) },
  );
}
