import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skipWithoutRedis, startTestRedis, type TestRedis } from "../../../test/redis";
import { closeRedis, connectRedis } from "../distributed/redis";
import { createRedisRateLimitStore } from "../distributed/redis-rate-limit";
import { createMemoryRateLimitStore, type RateLimitStore } from "../rate-limit-store";

/** Two processes' stores (one store when embedded: one process). */
interface StoreSubject {
  a: RateLimitStore;
  b: RateLimitStore;
  close(): Promise<void>;
}

const subjects: Array<{ name: string; redis: boolean; open(redisUrl: string): StoreSubject }> = [
  {
    name: "memory (embedded)",
    redis: false,
    open() {
      const store = createMemoryRateLimitStore();
      return { a: store, b: store, close: () => store.close() };
    },
  },
  {
    name: "redis (distributed)",
    redis: true,
    open(redisUrl) {
      const connections = [connectRedis(redisUrl, { name: "rl-a" }), connectRedis(redisUrl, { name: "rl-b" })];
      const a = createRedisRateLimitStore(connections[0]);
      const b = createRedisRateLimitStore(connections[1]);
      return {
        a,
        b,
        async close() {
          await a.close();
          await b.close();
          await Promise.all(connections.map(closeRedis));
        },
      };
    },
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let seq = 0;
const uniqueKey = (name: string) => `${name}:${Date.now().toString(36)}:${seq++}`;

describe.each(subjects)("RateLimitStore contract: $name", (subject) => {
  let redis: TestRedis | null = null;
  let stores: StoreSubject;
  beforeAll(async () => {
    if (subject.redis && !skipWithoutRedis) redis = await startTestRedis();
    if (!subject.redis || redis) stores = subject.open(redis?.url ?? "");
  });
  afterAll(async () => {
    await stores?.close();
    await redis?.stop();
  });
  const skip = subject.redis && skipWithoutRedis;

  it.skipIf(skip)("counts hits per key, and reports what is left of the window", async () => {
    const login = uniqueKey("login");
    const other = uniqueKey("login");
    expect(await stores.a.peek(login)).toBe(0);
    const first = await stores.a.hit(login, 60_000);
    expect(first.count).toBe(1);
    expect(first.resetInMs).toBeGreaterThan(59_000);
    expect(first.resetInMs).toBeLessThanOrEqual(60_000);
    await sleep(30);
    const second = await stores.a.hit(login, 60_000);
    expect(second.count).toBe(2);
    // The window started at the first hit: later hits do not extend it.
    expect(second.resetInMs).toBeLessThan(first.resetInMs);
    expect((await stores.a.hit(login, 60_000)).count).toBe(3);
    expect((await stores.a.hit(other, 60_000)).count).toBe(1);
    expect(await stores.a.peek(login)).toBe(3);
    expect(await stores.a.peek(other)).toBe(1);
  });

  it.skipIf(skip)("a new window starts once the old one has passed", async () => {
    const key = uniqueKey("password");
    await stores.a.hit(key, 150);
    expect((await stores.a.hit(key, 150)).count).toBe(2);
    await sleep(300);
    expect(await stores.a.peek(key)).toBe(0);
    const fresh = await stores.a.hit(key, 150);
    expect(fresh.count).toBe(1);
    expect(fresh.resetInMs).toBeGreaterThan(0);
    expect(fresh.resetInMs).toBeLessThanOrEqual(150);
  });

  it.skipIf(skip)("processes share one count per key, and reset clears it for all", async () => {
    const key = uniqueKey("shared");
    const hits = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? stores.a : stores.b).hit(key, 60_000)),
    );
    // Ten concurrent hits from two processes: each count handed out once, none lost.
    expect(hits.map((hit) => hit.count).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await stores.b.peek(key)).toBe(10);
    await stores.b.reset(key);
    expect(await stores.a.peek(key)).toBe(0);
    expect((await stores.a.hit(key, 60_000)).count).toBe(1);
  });

  it.skipIf(skip)(
    "hands out at most `limit` leases per key across processes; a release or a lapse frees one",
    async () => {
      const key = uniqueKey("inflight");
      const taken = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? stores.a : stores.b).acquire(key, 3, 60_000)),
      );
      // Six concurrent asks from two processes for three slots: exactly three leases, all distinct.
      const leases = taken.filter((lease): lease is string => lease !== null);
      expect(leases).toHaveLength(3);
      expect(new Set(leases).size).toBe(3);
      expect(await stores.a.acquire(uniqueKey("other"), 3, 60_000)).not.toBeNull();
      await stores.b.release(key, leases[0] as string);
      const again = await stores.a.acquire(key, 3, 60_000);
      expect(again).not.toBeNull();
      expect(await stores.b.acquire(key, 3, 60_000)).toBeNull();

      // A lease its holder never gave back (a crashed process) frees itself when its time is up.
      const short = uniqueKey("lapsing");
      expect(await stores.a.acquire(short, 1, 150)).not.toBeNull();
      expect(await stores.b.acquire(short, 1, 150)).toBeNull();
      await sleep(300);
      expect(await stores.b.acquire(short, 1, 150)).not.toBeNull();
    },
  );
});
