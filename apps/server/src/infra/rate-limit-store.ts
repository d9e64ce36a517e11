import { randomUUID } from "node:crypto";
import { LRUCache } from "lru-cache";

/**
 * Fixed-window hit counters shared by every process (docs/operations.md): in memory when embedded,
 * Redis when distributed. Login and registration limits, dashboard-password attempts and the
 * invitation and e-mail-change limits all count here, so N processes never multiply a limit by N.
 */
export interface RateLimitStore {
  /** Counts one hit for `key`; the window starts at the first hit and lasts `windowMs`. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  /** Hits counted so far in the current window (0 when none). */
  peek(key: string): Promise<number>;
  reset(key: string): Promise<void>;
  /**
   * Takes one of `limit` slots of `key` for at most `ttlMs` (requests in flight to one GA4 property, say,
   * counted across every process): the lease to give back, or null while all slots are held. A lease a
   * crashed process never gave back frees itself when its time is up.
   */
  acquire(key: string, limit: number, ttlMs: number): Promise<string | null>;
  release(key: string, lease: string): Promise<void>;
  close(): Promise<void>;
}

/** The embedded store: one process, so a map with expiry is exact. */
export function createMemoryRateLimitStore(now: () => number = Date.now): RateLimitStore {
  const windows = new LRUCache<string, { count: number; resetAt: number }>({ max: 200_000 });
  const current = (key: string) => {
    const entry = windows.get(key);
    if (entry && entry.resetAt <= now()) {
      windows.delete(key);
      return undefined;
    }
    return entry;
  };
  const leases = new Map<string, Map<string, number>>();
  return {
    async acquire(key, limit, ttlMs) {
      const held = leases.get(key) ?? new Map<string, number>();
      for (const [lease, expiresAt] of held) if (expiresAt <= now()) held.delete(lease);
      if (held.size >= limit) return null;
      const lease = randomUUID();
      held.set(lease, now() + ttlMs);
      leases.set(key, held);
      return lease;
    },
    async release(key, lease) {
      const held = leases.get(key);
      held?.delete(lease);
      if (held?.size === 0) leases.delete(key);
    },
    async hit(key, windowMs) {
      const entry = current(key) ?? { count: 0, resetAt: now() + windowMs };
      entry.count += 1;
      windows.set(key, entry);
      return { count: entry.count, resetInMs: Math.max(0, entry.resetAt - now()) };
    },
    async peek(key) {
      return current(key)?.count ?? 0;
    },
    async reset(key) {
      windows.delete(key);
    },
    async close() {
      windows.clear();
      leases.clear();
    },
  };
}
