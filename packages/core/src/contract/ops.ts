import { z } from "zod";

/** Operator endpoints (docs/operations.md), answered only with the OPS_TOKEN bearer. */
const zProbePrefix = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,60}$/, "The prefix may contain letters, digits and . _ - only.");

/** POST /ops/probe-jobs: enqueue `count` probe jobs keyed `{prefix}{n}` that each hold a worker `sleepMs`. */
export const ZProbeRequest = z.strictObject({
  prefix: zProbePrefix,
  count: z.number().int().min(1).max(1000),
  sleepMs: z.number().int().min(0).max(60_000).default(0),
});
export const ZProbeEnqueued = z.object({
  data: z.array(z.object({ key: z.string(), id: z.string(), duplicate: z.boolean() })),
});

/** GET /ops/probe-jobs?prefix=: per key, how many times the handler started and finished, and where. */
export const ZProbeQuery = z.strictObject({ prefix: zProbePrefix });
export const ZProbeRuns = z.object({
  data: z.array(
    z.object({ key: z.string(), starts: z.number(), finishes: z.number(), processes: z.array(z.string()) }),
  ),
});

/**
 * POST /ops/billing/resync-discounts: bring card subscriptions at Stripe to the price the company's
 * records say (its plan, discount and coupons), one retried job per company; `companyId` for one.
 */
export const ZDiscountResyncRequest = z.strictObject({
  companyId: z.string().trim().min(1).max(64).optional(),
});
export const ZDiscountResyncQueued = z.object({ data: z.object({ queued: z.number().int() }) });
