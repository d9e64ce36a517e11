import type { DayRange, TTable, TWidgetParam, TWidgetTypeConfig } from "@app/core";
import { type Cache, type CacheFactory, memoryCacheFactory } from "../../infra/cache";
import { recordUpstreamCall } from "../../infra/metrics";
import type { RateLimitStore } from "../../infra/rate-limit-store";

/**
 * The front of the data path (docs/decisions.md, the widget data path): cache, then single-flight, then the connector.
 * Concurrent identical requests (a dashboard opened by a whole team, a report fan-out) share one
 * upstream call, and repeats within the cache's lifetime make none.
 */

let upstreamCalls = 0;

/** Upstream connector calls made by this process so far; benchmarks and tests read the difference. */
export function upstreamCallCount(): number {
  return upstreamCalls;
}

/** Default lifetime of a cached table: fresh enough for reports, long enough to absorb a team opening a dashboard. */
export const TABLE_CACHE_TTL_MS = 10 * 60_000;

/**
 * The table cache, from the context's cache factory (memory when embedded, shared Redis when
 * distributed); in memory it is bounded by cells held rather than entries (a year by day is 365 rows).
 */
export function createTableCache(
  options: { maxCells?: number; ttlMs?: number } = {},
  factory: CacheFactory = memoryCacheFactory,
): Cache<TTable> {
  return factory<TTable>("widgets.tables", {
    maxSize: options.maxCells ?? 2_000_000,
    ttlMs: options.ttlMs ?? TABLE_CACHE_TTL_MS,
    sizeOf: (table) => 1 + (table.rows.length + 1) * (table.metrics.length + 1),
  });
}

function declaredKeys(params: readonly TWidgetParam[], into = new Set<string>()): Set<string> {
  for (const param of params) {
    into.add(param.key);
    if (param.children) declaredKeys(param.children, into);
  }
  return into;
}

const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);

/**
 * The inputs a query depends on: the type's declared parameters only (calculated metrics, metric
 * options and anything else the client sends are applied after the cache), empty values dropped.
 */
export function normaliseInputs(
  config: TWidgetTypeConfig,
  inputs: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const keys = declaredKeys(config.params);
  const result: Record<string, unknown> = {};
  for (const key of [...keys].sort()) if (!isEmpty(inputs[key])) result[key] = inputs[key];
  return result;
}

/** JSON with object keys sorted at every level, so equal configs give equal cache keys. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Every cache key of a source starts with this, so its entries can be dropped when it changes. */
export function sourceKeyPrefix(sourceId: string): string {
  return `${sourceId}|`;
}

export interface QueryKey {
  sourceId: string;
  type: string;
  inputs: Record<string, unknown>;
  range: DayRange;
  timezone: string;
}

/** Cache key: source, type, range, zone, normalised inputs. */
export function queryCacheKey(key: QueryKey): string {
  return `${sourceKeyPrefix(key.sourceId)}${key.type}|${key.range.startDate}|${key.range.endDate}|${key.timezone}|${stableJson(key.inputs)}`;
}

/** How long a process may hold a query's call before another process stops waiting for it. */
const FLIGHT_LEASE_MS = 60_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Cache plus single-flight in front of connector calls. With `leases` (ctx.rateLimits) the flight is
 * shared by every process: one process calls the provider, the others wait for its result in the shared
 * cache, so servers behind a load balancer opening the same cold dashboard still make one upstream call
 * per query. Should the calling process fail or die, a waiter calls itself.
 */
export function createQueryRunner(
  cache: Cache<TTable>,
  leases?: Pick<RateLimitStore, "acquire" | "release">,
  flightLeaseMs = FLIGHT_LEASE_MS,
) {
  const inflight = new Map<string, Promise<TTable>>();

  /** Calls the provider and stores the answer in the cache before anyone else may call. */
  async function callAndStore(key: string, call: () => Promise<TTable>): Promise<TTable> {
    const table = await call();
    await cache.set(key, table);
    return table;
  }

  async function callOnce(key: string, call: () => Promise<TTable>): Promise<TTable> {
    if (!leases) return callAndStore(key, call);
    const flight = `query-flight:${key}`;
    for (let round = 0; ; round += 1) {
      const lease = await leases.acquire(flight, 1, flightLeaseMs);
      if (lease) {
        try {
          // A holder stores its answer before releasing, so after waiting the cache may have it already.
          // (One too big for the cache is not there: then this process asks in its turn.)
          return (round > 0 ? await cache.get(key) : undefined) ?? (await callAndStore(key, call));
        } finally {
          await leases.release(flight, lease).catch(() => {});
        }
      }
      // Another process is asking the provider: its answer arrives in the shared cache.
      await pause(Math.min(250, 20 * 2 ** Math.min(round, 4)));
      const shared = await cache.get(key);
      if (shared) return shared;
    }
  }

  return {
    /** `provider` (the connector's key) labels the upstream call in the metrics. */
    async run(key: string, call: () => Promise<TTable>, provider = "unknown"): Promise<TTable> {
      const pending = inflight.get(key);
      if (pending) return pending;
      const cached = await cache.get(key);
      if (cached) return cached;
      // Checked again: another request may have started the call while the cache answered.
      const started = inflight.get(key);
      if (started) return started;
      const promise = (async () => {
        upstreamCalls += 1;
        let table: TTable;
        try {
          table = await callOnce(key, call);
        } catch (error) {
          recordUpstreamCall(provider, "error");
          throw error;
        }
        recordUpstreamCall(provider, "ok");
        return table;
      })();
      inflight.set(key, promise);
      try {
        return await promise;
      } finally {
        if (inflight.get(key) === promise) inflight.delete(key);
      }
    },
    /** Identical requests being answered right now (for tests and diagnostics). */
    inflightCount(): number {
      return inflight.size;
    },
  };
}

export type QueryRunner = ReturnType<typeof createQueryRunner>;
