import { LRUCache } from "lru-cache";
import type { EventBus } from "./events";

/**
 * Resolved sessions kept for a few seconds so a dashboard's burst of widget requests does not
 * read the same session, user and company rows dozens of times. Every change to users or
 * companies, and every logout, starts a new generation in this process, and is published on the
 * event bus (`session.revoked`, `company.changed`) so every other process drops its copies too
 * (`followRevocations`); `ttlMs` only bounds staleness if an event were lost.
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

/**
 * Drops cached sessions when any process revokes them: one session by its token hash, everything
 * otherwise (a user's or a company's sessions are few and reloading them is cheap). Returns the
 * unsubscribe function.
 */
export function followRevocations(cache: SessionCache<object>, events: EventBus): () => void {
  const stops = [
    events.subscribe("session.revoked", ({ tokenHash }) => {
      if (tokenHash) cache.delete(tokenHash);
      else cache.clear();
    }),
    events.subscribe("company.changed", () => cache.clear()),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
