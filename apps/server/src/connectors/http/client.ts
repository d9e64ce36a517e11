import type { z } from "zod";
import type { RateLimitStore } from "../../infra/rate-limit-store";
import { type Classifier, classifyByStatus, type ProviderAnswer } from "./classify";
import { ProviderError } from "./errors";
import { reportAnswer } from "./exchanges";
import { type AllowList, guardedFetch } from "./outbound-guard";

/**
 * The one outbound HTTP layer of the connectors (docs/decisions.md, "Connector HTTP layer"): plain
 * fetch, a typed request, a zod schema per answer, and per provider a base URL from configuration, a
 * time limit, a concurrency limit, quota buckets counted the way the provider counts, retries that
 * honour Retry-After within a budget, and every failure normalised into a ProviderError.
 */

/** A counted allowance: at most `max` requests per `windowMs` for `key` (shared by every process). */
export interface QuotaBucket {
  key: string;
  max: number;
  windowMs: number;
  /** `quota` for daily/hourly allowances (wait for the reset), `rate` for per-minute ones. */
  kind: "quota" | "rate";
}

export interface ProviderRequest<T> {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** Appended to the provider's base URL ("/v1beta/properties/123:runReport"). */
  path: string;
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (OAuth token endpoints). */
  form?: Record<string, string>;
  /** The answer's shape; an answer that does not match is a `server` failure (never retried). */
  schema: z.ZodType<T>;
  /** What the concurrency limit counts by (GA4: the property). Default: the provider. */
  limitKey?: string;
  /**
   * A burst limit of one request per `gapMs` for the `limitKey` (Klaviyo's reporting, 1 a second): one
   * such request in flight at a time across every process, and the next sent only `gapMs` after this
   * one's answer came back. Measured from the answer, so the provider sees the two arrive at least
   * `gapMs` apart whatever the network and the machine's load do to the sending.
   */
  paceMs?: number;
  /** Allowances this request spends, checked before it is sent. */
  quotas?: readonly QuotaBucket[];
  signal?: AbortSignal;
  /** Called with a successful answer's headers (paging headers such as WordPress' `X-WP-TotalPages`). */
  onHeaders?: (headers: Headers) => void;
}

export interface ProviderClientOptions {
  /** Short key for logs and limits ("ga4", "meta"). */
  provider: string;
  baseUrl: string;
  /** Per attempt. Default 30 s. */
  timeoutMs?: number;
  /**
   * Requests in flight per `limitKey`, counted across every process (leases in `counters`). Default 10
   * (GA4's per-property limit).
   */
  concurrency?: number;
  /** Attempts per request, the first included. Default 3. */
  attempts?: number;
  /** Retries allowed per provider across all requests and processes in a window (GA4 penalises repeated 5xx). */
  retryBudget?: { max: number; windowMs: number };
  /** Waits longer than this are not slept through in a request: the error goes up with its `retryAfterMs`. */
  maxWaitMs?: number;
  classify?: Classifier;
  /** Counters shared across processes (ctx.rateLimits): quota buckets and the retry budget. */
  counters: RateLimitStore;
  /** Set for hosts a user typed: private, loopback and link-local addresses are refused. */
  userSuppliedHost?: { allow: AllowList };
  /** For tests: the clock and the sleep between attempts. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface ProviderClient {
  request<T>(request: ProviderRequest<T>): Promise<T>;
}

/** A counting semaphore per key: at most `limit` holders of each key at once, the rest wait in order. */
function keyedLimiter(limit: number) {
  const state = new Map<string, { active: number; waiting: (() => void)[] }>();
  return async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    let entry = state.get(key);
    if (!entry) {
      entry = { active: 0, waiting: [] };
      state.set(key, entry);
    }
    const slot = entry;
    if (slot.active >= limit) await new Promise<void>((resolve) => slot.waiting.push(resolve));
    else slot.active += 1;
    try {
      return await work();
    } finally {
      const next = slot.waiting.shift();
      if (next) next();
      else {
        slot.active -= 1;
        if (slot.active === 0) state.delete(key);
      }
    }
  };
}

/** Exponential backoff with full jitter (0.5 s, 1 s, 2 s … capped at 30 s). */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(30_000, 500 * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

function buildUrl(baseUrl: string, path: string, query: ProviderRequest<unknown>["query"]): string {
  const url = new URL(baseUrl.replace(/\/+$/, "") + path);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, String(item));
    else url.searchParams.set(name, String(value));
  }
  return url.toString();
}

async function readBody(response: Response): Promise<unknown> {
  const raw = await response.text();
  if (raw === "") return null;
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json") || /^\s*[[{]/.test(raw)) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

/**
 * A lease on one of `concurrency` slots shared by every process, waited for at most `timeoutMs`: the
 * provider counts requests in flight whichever process sends them.
 */
async function acquireSharedSlot(
  slot: string,
  {
    provider,
    counters,
    concurrency,
    timeoutMs,
  }: { provider: string; counters: RateLimitStore; concurrency: number; timeoutMs: number },
): Promise<string> {
  // A lease outlives one attempt's time limit a little, so a process that dies mid-request frees it.
  const ttlMs = timeoutMs + 5_000;
  // Real time, not the injectable clock: a test's frozen clock must not make this wait for ever.
  const started = Date.now();
  for (let round = 0; ; round += 1) {
    let lease: string | null;
    try {
      lease = await counters.acquire(slot, concurrency, ttlMs);
    } catch (error) {
      // The shared store (Redis) not answering is a failure for now, served like an outage.
      throw new ProviderError(provider, "server", `the shared limit store failed: ${String(error)}`);
    }
    if (lease) return lease;
    if (Date.now() - started > timeoutMs) {
      throw new ProviderError(provider, "rate", `${concurrency} requests already in flight`, { retryAfterMs: 1_000 });
    }
    // Polling with jitter: other processes' requests end at unknown times.
    const pause = Math.min(200, 10 * 2 ** Math.min(round, 4));
    await new Promise((resolve) => setTimeout(resolve, pause / 2 + Math.random() * (pause / 2)));
  }
}

/**
 * Gives a shared slot back: at once, or for a paced key `paceMs` after the answer (real time: a test's
 * clock must not shorten it), without holding that answer back from its caller.
 */
async function releaseSlot(counters: RateLimitStore, slot: string, lease: string, paceMs: number | undefined) {
  const release = () => counters.release(slot, lease).catch(() => {});
  if (paceMs === undefined) await release();
  else void new Promise((resolve) => setTimeout(resolve, paceMs)).then(release);
}

/** A key the provider said to wait for (a used-up allowance, a long Retry-After) is not asked before then. */
function throwIfHeld(provider: string, blocked: { until: number; error: ProviderError } | undefined, at: number) {
  if (!blocked || blocked.until <= at) return;
  throw new ProviderError(provider, blocked.error.kind, `still waiting: ${blocked.error.detail}`, {
    retryAfterMs: blocked.until - at,
  });
}

export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const provider = options.provider;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const attempts = options.attempts ?? 3;
  const maxWaitMs = options.maxWaitMs ?? 10_000;
  const classify = options.classify ?? classifyByStatus;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const concurrency = options.concurrency ?? 10;
  const local = keyedLimiter(concurrency);
  // The provider counts requests in flight whichever process sends them (GA4: 10 per property), so a slot
  // is a lease shared by every process; the local limiter only keeps this process's waiters in order
  // instead of all of them polling the store.
  // Only a request naming what the provider counts by (a GA4 property) takes a shared lease; requests of
  // the provider as a whole (token refreshes, pickers) keep a limit per process, as a cluster-wide one
  // would make every company's refreshes queue behind each other.
  const limit = <T>(key: string, { limitKey, paceMs }: ProviderRequest<T>, work: () => Promise<T>): Promise<T> =>
    local(key, async () => {
      if (limitKey === undefined) return work();
      const slot = `provider:${provider}:inflight:${key}`;
      const lease = await sharedSlot(slot, paceMs === undefined ? concurrency : 1);
      try {
        return await work();
      } finally {
        await releaseSlot(options.counters, slot, lease, paceMs);
      }
    });
  const sharedSlot = (slot: string, slots: number) =>
    acquireSharedSlot(slot, { provider, counters: options.counters, concurrency: slots, timeoutMs });
  const send = options.userSuppliedHost ? guardedFetch(options.userSuppliedHost.allow) : fetch;
  // A provider that said "wait" (Meta's regain time, a long Retry-After) is not asked again before then
  // by this process, per limit key.
  const blockedUntil = new Map<string, { until: number; error: ProviderError }>();

  async function spend(quotas: readonly QuotaBucket[]) {
    for (const bucket of quotas) {
      const { count, resetInMs } = await options.counters.hit(`provider:${provider}:${bucket.key}`, bucket.windowMs);
      if (count > bucket.max) {
        throw new ProviderError(provider, bucket.kind, `${bucket.key}: ${bucket.max} per ${bucket.windowMs} ms used`, {
          retryAfterMs: resetInMs,
        });
      }
    }
  }

  async function retryAllowed(): Promise<boolean> {
    if (!options.retryBudget) return true;
    const { count } = await options.counters.hit(`provider:${provider}:retries`, options.retryBudget.windowMs);
    return count <= options.retryBudget.max;
  }

  async function attempt<T>(
    request: ProviderRequest<T>,
    url: string,
    body: string | undefined,
    headers: Record<string, string>,
  ) {
    const signal = request.signal
      ? AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)])
      : AbortSignal.timeout(timeoutMs);
    const method = request.method ?? (body === undefined ? "GET" : "POST");
    let response: Response;
    try {
      response = await send(url, {
        method,
        headers,
        body,
        signal,
      });
    } catch (error) {
      if (request.signal?.aborted) throw error;
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      if (error instanceof Error && (error as { code?: string }).code === "EBLOCKED") {
        throw new ProviderError(provider, "input", error.message);
      }
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new ProviderError(provider, "server", timedOut ? `no answer within ${timeoutMs} ms` : reason);
    }
    let parsed: unknown;
    try {
      parsed = await readBody(response);
    } catch (error) {
      throw new ProviderError(provider, "server", `the answer broke off: ${String(error)}`, {
        httpStatus: response.status,
      });
    }
    reportAnswer(provider, { method, url, headers, body }, response, parsed);
    const answer: ProviderAnswer = { status: response.status, headers: response.headers, body: parsed, now: now() };
    const failure = classify(provider, answer);
    if (failure) throw failure;
    const result = request.schema.safeParse(parsed);
    if (!result.success) {
      const where = result.error.issues[0]?.path.join(".") || "(root)";
      throw new ProviderError(provider, "server", `unexpected answer at ${where}: ${result.error.issues[0]?.message}`, {
        httpStatus: response.status,
        retryable: false,
      });
    }
    request.onHeaders?.(response.headers);
    return result.data;
  }

  return {
    async request<T>(request: ProviderRequest<T>): Promise<T> {
      const key = request.limitKey ?? provider;
      const stillWaiting = () => throwIfHeld(provider, blockedUntil.get(key), now());
      stillWaiting();
      await spend(request.quotas ?? []);
      const url = buildUrl(options.baseUrl, request.path, request.query);
      const headers: Record<string, string> = { accept: "application/json", ...request.headers };
      let body: string | undefined;
      if (request.json !== undefined) {
        body = JSON.stringify(request.json);
        headers["content-type"] = "application/json";
      } else if (request.form) {
        body = new URLSearchParams(request.form).toString();
        headers["content-type"] = "application/x-www-form-urlencoded";
      }
      for (let tried = 1; ; tried += 1) {
        try {
          // Asked again once its turn comes: a request queued behind one the provider answered "used up"
          // (or "wait") is not sent.
          return await limit(key, request, () => {
            stillWaiting();
            return attempt(request, url, body, headers);
          });
        } catch (error) {
          if (!(error instanceof ProviderError)) throw error;
          if (!error.transient) {
            // A used-up allowance stays used up until its reset: no request before then.
            if (error.kind === "quota" && error.retryAfterMs) {
              blockedUntil.set(key, { until: now() + error.retryAfterMs, error });
            }
            throw error;
          }
          const wait = error.retryAfterMs ?? backoffMs(tried);
          if (wait > maxWaitMs) {
            blockedUntil.set(key, { until: now() + wait, error });
            throw error;
          }
          if (tried >= attempts || !(await retryAllowed())) throw error;
          await sleep(wait);
        }
      }
    },
  };
}
