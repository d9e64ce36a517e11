import { LRUCache } from "lru-cache";

/**
 * Resolved sessions kept for a few seconds so a dashboard's burst of widget requests does not
 * read the same session, user and company rows dozens of times. Every change to users or
 * companies, and every logout, starts a new generation in this process; another process
 * (distributed mode) may serve a revoked session for at most `ttlMs`.
 */
export interface SessionCache<V> {
  /** The current generation: read it before loading from the database, pass it to `set`. */
  generation(): number;
  get(tokenHash: string): V | undefined;
  /** Keeps the value only if no change happened since `generation` was read (no stale write-back). */
  set(tokenHash: string, value: V, generation: number): void;
  delete(tokenHash: string): void;
  clear(): void;
}

export const SESSION_CACHE_TTL_MS = 5_000;

export function createSessionCache<V extends object>(ttlMs = SESSION_CACHE_TTL_MS): SessionCache<V> {
  const lru = new LRUCache<string, { value: V; generation: number }>({ max: 10_000, ttl: ttlMs });
  let current = 0;
  return {
    generation: () => current,
    get: (key) => {
      const entry = lru.get(key);
      return entry && entry.generation === current ? entry.value : undefined;
    },
    set: (key, value, generation) => {
      if (generation === current) lru.set(key, { value, generation });
    },
    delete: (key) => {
      current += 1;
      lru.delete(key);
    },
    clear: () => {
      current += 1;
      lru.clear();
    },
  };
}
