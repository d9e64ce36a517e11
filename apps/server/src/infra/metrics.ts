import type http from "node:http";
import net from "node:net";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Cache, CacheFactory, CacheOptions } from "./cache";
import type { AddressRange, AppConfig } from "./config";
import type { JobQueue, JobState } from "./jobs";
import { safeEqual } from "./security";

/**
 * Prometheus instruments of this process (GET /metrics). One registry per process, not prom-client's
 * global one: the numbers describe the process, and several apps built in one test process add to the
 * same counters (tests read differences).
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const httpRequests = new Counter({
  name: "http_requests_total",
  help: "HTTP requests answered, by route pattern, method and status.",
  labelNames: ["route", "method", "status"] as const,
  registers: [registry],
});

const httpDuration = new Histogram({
  name: "http_request_duration_seconds",
  help: "Time to answer an HTTP request, by route pattern and method.",
  labelNames: ["route", "method"] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const jobDuration = new Histogram({
  name: "jobs_duration_seconds",
  help: "Time one job attempt ran, by job name and outcome.",
  labelNames: ["name", "outcome"] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers: [registry],
});

const jobFailures = new Counter({
  name: "jobs_failed_total",
  help: "Job attempts that failed (retried or not), by job name.",
  labelNames: ["name"] as const,
  registers: [registry],
});

const cacheLookups = new Counter({
  name: "cache_lookups_total",
  help: "Cache reads by namespace and result (hit or miss); the hit ratio is hit / (hit + miss).",
  labelNames: ["namespace", "result"] as const,
  registers: [registry],
});

const upstreamCalls = new Counter({
  name: "upstream_calls_total",
  help: "Calls to data providers (connectors), by provider and outcome.",
  labelNames: ["provider", "outcome"] as const,
  registers: [registry],
});

const JOB_STATES: readonly JobState[] = ["waiting", "delayed", "active", "completed", "failed"];
const queues = new Set<Pick<JobQueue, "counts">>();

new Gauge({
  name: "jobs_queue_depth",
  help: "Jobs by state (waiting and delayed are the queue's depth).",
  labelNames: ["state"] as const,
  registers: [registry],
  async collect() {
    this.reset();
    const totals = Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as Record<JobState, number>;
    for (const queue of queues) {
      // A queue that cannot answer (Redis away, not built) must not take the other metrics down with it.
      const counts = await queue.counts().catch(() => null);
      if (!counts) continue;
      for (const state of JOB_STATES) totals[state] += counts[state] ?? 0;
    }
    for (const state of JOB_STATES) this.set({ state }, totals[state]);
  },
});

/** Counts the queue's jobs in `jobs_queue_depth` until the returned function is called. */
export function watchJobQueue(queue: Pick<JobQueue, "counts">): () => void {
  queues.add(queue);
  return () => queues.delete(queue);
}

/**
 * The series of one route, method and status, looked up once: prom-client hashes a label object on every
 * `inc`/`observe`, which was a measurable part of a small request's cost (docs/decisions.md). Bounded by
 * routes × methods × statuses (unmatched URLs share one route name), so the map cannot grow without end.
 */
const requestSeries = new Map<string, { count: { inc(): void }; duration: { observe(value: number): void } }>();

/** One answered HTTP request; `route` is the route's pattern (never the raw URL, which would explode the series). */
export function recordRequest(route: string, method: string, status: number, seconds: number): void {
  const key = `${method} ${status} ${route}`;
  let series = requestSeries.get(key);
  if (!series) {
    series = {
      count: httpRequests.labels({ route, method, status: String(status) }),
      duration: httpDuration.labels({ route, method }),
    };
    requestSeries.set(key, series);
  }
  series.count.inc();
  series.duration.observe(seconds);
}

/** One job attempt, called by the job queue implementations when an attempt ends. */
export function recordJob(name: string, seconds: number, outcome: "completed" | "failed"): void {
  jobDuration.observe({ name, outcome }, seconds);
  if (outcome === "failed") jobFailures.inc({ name });
}

/** One call to a data provider (connector key), whether it answered or failed. */
export function recordUpstreamCall(provider: string, outcome: "ok" | "error"): void {
  upstreamCalls.inc({ provider, outcome });
}

/** The same caches, counting each read as a hit or a miss under the cache's namespace. */
export function countingCacheFactory(inner: CacheFactory): CacheFactory {
  return <V extends object>(namespace: string, options: CacheOptions<V>): Cache<V> => {
    const cache = inner<V>(namespace, options);
    const hit = cacheLookups.labels({ namespace, result: "hit" });
    const miss = cacheLookups.labels({ namespace, result: "miss" });
    return {
      async get(key) {
        const value = await cache.get(key);
        (value === undefined ? miss : hit).inc();
        return value;
      },
      set: (key, value) => cache.set(key, value),
      deletePrefix: (prefix) => cache.deletePrefix(prefix),
      clear: () => cache.clear(),
    };
  };
}

/** The text Prometheus scrapes. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/** Matches addresses against METRICS_ALLOW; IPv4 addresses written as IPv6 (`::ffff:10.0.0.1`) count as IPv4. */
export function addressMatcher(ranges: readonly AddressRange[]): (address: string | undefined) => boolean {
  const list = new net.BlockList();
  for (const range of ranges) list.addSubnet(range.address, range.prefix, range.family);
  return (address) => {
    if (!address) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    const plain = mapped ? mapped[1] : address;
    const family = net.isIP(plain);
    if (family === 0) return false;
    return list.check(plain, family === 4 ? "ipv4" : "ipv6");
  };
}

/**
 * Who may read the metrics: an address of METRICS_ALLOW, or `Authorization: Bearer <OPS_TOKEN>`.
 * Framework-free, so a worker's bare health server can answer /metrics with the same rule.
 * Behind a proxy that is not declared (TRUST_PROXY), every visitor arrives from the proxy's address,
 * often loopback: forwarded requests are then judged by the token alone.
 */
export function metricsAccess(
  config: Pick<AppConfig, "metrics" | "opsToken" | "trustProxy">,
): (address: string | undefined, headers: Record<string, string | string[] | undefined>) => boolean {
  const allowedAddress = addressMatcher(config.metrics.allow);
  const expected = config.opsToken === null ? null : `Bearer ${config.opsToken}`;
  return (address, headers) => {
    if (expected !== null && safeEqual(String(headers.authorization ?? ""), expected)) return true;
    const forwarded = headers["x-forwarded-for"] !== undefined || headers.forwarded !== undefined;
    return !(forwarded && config.trustProxy === false) && allowedAddress(address);
  };
}

/**
 * GET /metrics on a bare Node HTTP server (a worker's health server: job durations and failures are
 * counted in the process that runs the jobs). Same rule and answers as the web's route.
 */
export async function answerMetrics(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  mayRead: ReturnType<typeof metricsAccess>,
): Promise<void> {
  if (!mayRead(request.socket.remoteAddress, request.headers)) {
    response.writeHead(404, { "content-type": "application/json" }).end('{"code":"not_found","message":"Not found."}');
    return;
  }
  const { contentType, body } = await metricsText();
  response.writeHead(200, { "content-type": contentType, "cache-control": "no-store" }).end(body);
}
