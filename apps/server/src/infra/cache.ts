import { LRUCache } from "lru-cache";

/**
 * A small key-value cache with expiry (docs/operations.md: in-memory LRU when embedded, Redis when
 * distributed). Asynchronous so a network-backed implementation fits the same interface.
 */
export interface Cache<V> {
  get(key: string): Promise<V | undefined>;
  set(key: string, value: V): Promise<void>;
  /** Drops every entry whose key starts with `prefix` (a source's entries after its credentials or files change). */
  deletePrefix(prefix: string): Promise<void>;
  clear(): Promise<void>;
}

export interface MemoryCacheOptions<V> {
  /** Upper bound of the summed sizes of all entries (in the units `sizeOf` returns). */
  maxSize: number;
  ttlMs: number;
  /** Size of one entry; 1 when absent, which makes maxSize an entry count. */
  sizeOf?: (value: V) => number;
}

/** The embedded mode's cache: least-recently-used entries go first once maxSize is reached. */
export function createMemoryCache<V extends object>(options: MemoryCacheOptions<V>): Cache<V> {
  const sizeOf = options.sizeOf ?? (() => 1);
  const lru = new LRUCache<string, V>({
    maxSize: options.maxSize,
    ttl: options.ttlMs,
    // An entry bigger than the whole cache is simply not kept (lru-cache refuses it) rather than evicting everything.
    sizeCalculation: (value) => Math.max(1, Math.ceil(sizeOf(value))),
  });
  return {
    async get(key) {
      return lru.get(key);
    },
    async set(key, value) {
      lru.set(key, value);
    },
    async deletePrefix(prefix) {
      for (const key of [...lru.keys()]) if (key.startsWith(prefix)) lru.delete(key);
    },
    async clear() {
      lru.clear();
    },
  };
}

/** How a cached value crosses the network in the distributed cache (JSON unless told otherwise). */
export interface CacheCodec<V> {
  encode(value: V): string | Buffer;
  decode(bytes: Buffer): V;
}

export interface CacheOptions<V> extends MemoryCacheOptions<V> {
  codec?: CacheCodec<V>;
}

/**
 * Hands each feature its own cache under a namespace: an in-memory LRU when embedded, Redis when
 * distributed (shared by every process, so one process's invalidation is everyone's).
 */
export type CacheFactory = <V extends object>(namespace: string, options: CacheOptions<V>) => Cache<V>;

export const memoryCacheFactory: CacheFactory = (_namespace, options) => createMemoryCache(options);
