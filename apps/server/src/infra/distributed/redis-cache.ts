import type { Redis } from "ioredis";
import type { Cache, CacheFactory, CacheOptions } from "../cache";

const JSON_CODEC = {
  encode: (value: unknown) => JSON.stringify(value),
  decode: (bytes: Buffer) => JSON.parse(bytes.toString("utf8")),
};

/** Values over this size are not shared (one huge table must not fill Redis); the caller recomputes. */
const MAX_VALUE_BYTES = 8 * 1024 * 1024;

/**
 * The distributed cache: every process reads and writes the same Redis keys, so an entry one process
 * dropped is gone for all. Keys are `cache:{namespace}:{key}`; entries expire with their TTL (PX).
 * `deletePrefix` walks the namespace with SCAN (never KEYS, which blocks Redis) and UNLINKs: invalidation
 * is rare (a source changed) while reads are constant, so reads pay nothing for it.
 * Redis errors degrade to a miss and a dropped write: the answer is recomputed, never a 500.
 */
export function redisCacheFactory(redis: Redis, onError: (error: unknown) => void): CacheFactory {
  return <V extends object>(namespace: string, options: CacheOptions<V>): Cache<V> => {
    const codec = options.codec ?? (JSON_CODEC as unknown as NonNullable<CacheOptions<V>["codec"]>);
    const prefix = `cache:${namespace}:`;
    // While Redis is away nobody can read the entries either; the callers' keys carry versions (widgets)
    // so an entry that survives a failed invalidation is never read as current. Reported, not thrown:
    // a source saved during an outage must not answer 500.
    const deleteMatching = async (pattern: string) => {
      try {
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500);
          cursor = next;
          if (keys.length > 0) await redis.unlink(...keys);
        } while (cursor !== "0");
      } catch (error) {
        onError(error);
      }
    };
    return {
      async get(key) {
        try {
          const bytes = await redis.getBuffer(prefix + key);
          return bytes ? codec.decode(bytes) : undefined;
        } catch (error) {
          onError(error);
          return undefined;
        }
      },
      async set(key, value) {
        try {
          const encoded = codec.encode(value);
          if (encoded.length > MAX_VALUE_BYTES) return;
          await redis.set(prefix + key, encoded, "PX", options.ttlMs);
        } catch (error) {
          onError(error);
        }
      },
      async deletePrefix(keyPrefix) {
        await deleteMatching(`${escapeGlob(prefix + keyPrefix)}*`);
      },
      async clear() {
        await deleteMatching(`${escapeGlob(prefix)}*`);
      },
    };
  };
}

/** SCAN MATCH is a glob: a key's own `*`, `?`, `[` or `\` must match literally. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}
