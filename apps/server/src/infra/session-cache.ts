import { LRUCache } from "lru-cache";

/**
 * Resolved sessions kept for a few seconds so a dashboard's burst of widget requests does not
 * read the same session, user and company rows dozens of times. Every change to users or
 * companies clears it in this process; another process (distributed mode) may serve a revoked
 * session for at most `ttlMs`.
 */
export interface SessionCache<V> {
  get(tokenHash: string): V | undefined;
  set(tokenHash: string, value: V): void;
  delete(tokenHash: string): void;
  clear(): void;
}

export const SESSION_CACHE_TTL_MS = 5_000;

export function createSessionCache<V extends object>(ttlMs = SESSION_CACHE_TTL_MS): SessionCache<V> {
  const lru = new LRUCache<string, V>({ max: 10_000, ttl: ttlMs });
  return {
    get: (key) => lru.get(key),
    set: (key, value) => {
      lru.set(key, value);
    },
    delete: (key) => {
      lru.delete(key);
    },
    clear: () => lru.clear(),
  };
}
