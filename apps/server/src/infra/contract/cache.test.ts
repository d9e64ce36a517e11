import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../test/distributed/cluster";
import { skipWithoutRedis, startTestRedis, type TestRedis } from "../../../test/redis";
import { type CacheFactory, memoryCacheFactory } from "../cache";
import { closeRedis, connectRedis } from "../distributed/redis";
import { redisCacheFactory } from "../distributed/redis-cache";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One implementation under test: `a` and `b` are two processes' factories (the same one when embedded). */
interface CacheSubject {
  a: CacheFactory;
  b: CacheFactory;
  close(): Promise<void>;
}

const subjects: Array<{ name: string; redis: boolean; open(redisUrl: string): Promise<CacheSubject> }> = [
  {
    name: "memory (embedded)",
    redis: false,
    async open() {
      return { a: memoryCacheFactory, b: memoryCacheFactory, async close() {} };
    },
  },
  {
    name: "redis (distributed)",
    redis: true,
    async open(redisUrl) {
      const connections = [connectRedis(redisUrl, { name: "test-a" }), connectRedis(redisUrl, { name: "test-b" })];
      const onError = (error: unknown) => {
        throw error;
      };
      return {
        a: redisCacheFactory(connections[0], onError),
        b: redisCacheFactory(connections[1], onError),
        async close() {
          await Promise.all(connections.map(closeRedis));
        },
      };
    },
  },
];

let namespaceSeq = 0;
const uniqueNamespace = () => `ns${Date.now().toString(36)}${namespaceSeq++}`;

describe.each(subjects)("Cache contract: $name", (subject) => {
  let redis: TestRedis | null = null;
  let caches: CacheSubject;
  beforeAll(async () => {
    if (subject.redis && !skipWithoutRedis) redis = await startTestRedis();
    if (!subject.redis || redis) caches = await subject.open(redis?.url ?? "");
  });
  afterAll(async () => {
    await caches?.close();
    await redis?.stop();
  });

  const options = { maxSize: 1000, ttlMs: 60_000 };

  it.skipIf(subject.redis && skipWithoutRedis)("gets what it set, and misses what it never had", async () => {
    const cache = caches.a<{ n: number }>(uniqueNamespace(), options);
    expect(await cache.get("missing")).toBeUndefined();
    await cache.set("k", { n: 1 });
    expect(await cache.get("k")).toEqual({ n: 1 });
    await cache.set("k", { n: 2 });
    expect(await cache.get("k")).toEqual({ n: 2 });
  });

  it.skipIf(subject.redis && skipWithoutRedis)("forgets an entry once its TTL has passed", async () => {
    const cache = caches.a<{ n: number }>(uniqueNamespace(), { maxSize: 100, ttlMs: 150 });
    await cache.set("k", { n: 1 });
    expect(await cache.get("k")).toEqual({ n: 1 });
    await sleep(400);
    expect(await cache.get("k")).toBeUndefined();
  });

  it.skipIf(subject.redis && skipWithoutRedis)(
    "deletePrefix drops exactly that prefix, glob characters taken literally",
    async () => {
      const cache = caches.a<{ k: string }>(uniqueNamespace(), options);
      const keys = ["src1:a", "src1:b", "src10:a", "x*1", "x*2", "xa", "x[1]y", "x1y", "x?z", "xqz", "x\\w", "xw"];
      for (const key of keys) await cache.set(key, { k: key });
      const present = async () => {
        const found: string[] = [];
        for (const key of keys) if (await cache.get(key)) found.push(key);
        return found;
      };
      await cache.deletePrefix("src1:");
      expect(await present()).toEqual(keys.filter((key) => !key.startsWith("src1:")));
      await cache.deletePrefix("x*");
      await cache.deletePrefix("x[");
      await cache.deletePrefix("x?");
      await cache.deletePrefix("x\\");
      expect(await present()).toEqual(["src10:a", "xa", "x1y", "xqz", "xw"]);
    },
  );

  it.skipIf(subject.redis && skipWithoutRedis)("clear empties its own namespace only", async () => {
    const one = caches.a<{ n: number }>(uniqueNamespace(), options);
    const other = caches.a<{ n: number }>(uniqueNamespace(), options);
    await one.set("k", { n: 1 });
    await one.set("j", { n: 2 });
    await other.set("k", { n: 3 });
    await one.clear();
    expect(await one.get("k")).toBeUndefined();
    expect(await one.get("j")).toBeUndefined();
    expect(await other.get("k")).toEqual({ n: 3 });
  });

  it.skipIf(subject.redis && skipWithoutRedis)("a Buffer codec round-trips every byte", async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const cache = caches.a<Buffer>(uniqueNamespace(), {
      maxSize: 1_000_000,
      ttlMs: 60_000,
      sizeOf: (value) => value.length,
      codec: { encode: (value) => value, decode: (raw) => raw },
    });
    await cache.set("bin", bytes);
    const back = await cache.get("bin");
    expect(Buffer.isBuffer(back)).toBe(true);
    expect(back?.equals(bytes)).toBe(true);
  });

  if (subject.redis) {
    it.skipIf(skipWithoutRedis)("two processes see each other's writes and invalidations", async () => {
      const namespace = uniqueNamespace();
      const first = caches.a<{ n: number }>(namespace, options);
      const second = caches.b<{ n: number }>(namespace, options);
      await first.set("s1:w1", { n: 1 });
      await first.set("s2:w1", { n: 2 });
      expect(await second.get("s1:w1")).toEqual({ n: 1 });
      await second.deletePrefix("s1:");
      expect(await first.get("s1:w1")).toBeUndefined();
      expect(await first.get("s2:w1")).toEqual({ n: 2 });
      await second.set("s2:w1", { n: 3 });
      expect(await first.get("s2:w1")).toEqual({ n: 3 });
      await first.clear();
      expect(await second.get("s2:w1")).toBeUndefined();
    });
  }
});

describe.skipIf(skipWithoutRedis)("Redis cache during an outage", () => {
  const options = { maxSize: 100, ttlMs: 60_000 };

  async function expectDegrades(connection: Redis) {
    const errors: unknown[] = [];
    const cache = redisCacheFactory(connection, (error) => errors.push(error))<{ n: number }>("outage", options);
    // Every operation resolves (a miss, a dropped write or invalidation), each quickly: ioredis gives up
    // after a couple of short reconnect attempts, so a page is not held for seconds per cache read.
    for (let round = 0; round < 2; round++) {
      for (const operation of [
        () => cache.set("k", { n: 1 }),
        () => cache.get("k"),
        () => cache.deletePrefix("k"),
        () => cache.clear(),
      ]) {
        const started = Date.now();
        await expect(operation()).resolves.toBeUndefined();
        expect(Date.now() - started).toBeLessThan(1500);
      }
    }
    expect(errors.length).toBe(8);
  }

  it("a Redis that never answers (closed port) is a miss, a dropped write or invalidation, never a throw", async () => {
    const connection = connectRedis(`redis://127.0.0.1:${await freePort()}`, { name: "closed" });
    connection.on("error", () => {});
    try {
      await expectDegrades(connection);
    } finally {
      await closeRedis(connection);
    }
  });

  it("a Redis that goes away after a hit turns into misses", async () => {
    const redis = await startTestRedis();
    const connection = connectRedis(redis.url, { name: "stops" });
    connection.on("error", () => {});
    try {
      const cache = redisCacheFactory(connection, () => {})<{ n: number }>("outage", options);
      await cache.set("k", { n: 1 });
      expect(await cache.get("k")).toEqual({ n: 1 });
      await redis.stop();
      await expectDegrades(connection);
    } finally {
      await closeRedis(connection);
      await redis.stop();
    }
  });
});
