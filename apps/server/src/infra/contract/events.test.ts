import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { skipWithoutRedis, startTestRedis, type TestRedis } from "../../../test/redis";
import { closeRedis, connectRedis } from "../distributed/redis";
import { createRedisEventBus, subscriptionsReady } from "../distributed/redis-events";
import { createLocalEventBus, type EventBus } from "../events";

/** Two processes' buses (one shared bus when embedded), the errors their handlers reported. */
interface BusSubject {
  a: EventBus;
  b: EventBus;
  /** Resolves once the subscriptions made so far are in effect (a network round trip when distributed). */
  ready(): Promise<void>;
  errors: Array<{ error: unknown; name: string }>;
  close(): Promise<void>;
}

const subjects: Array<{ name: string; redis: boolean; open(redisUrl: string): BusSubject }> = [
  {
    name: "local (embedded)",
    redis: false,
    open() {
      const errors: BusSubject["errors"] = [];
      const bus = createLocalEventBus((error, name) => errors.push({ error, name }));
      return { a: bus, b: bus, ready: async () => {}, errors, close: () => bus.close() };
    },
  },
  {
    name: "redis pub/sub (distributed)",
    redis: true,
    open(redisUrl) {
      const errors: BusSubject["errors"] = [];
      const onError = (error: unknown, name: string) => errors.push({ error, name });
      const connections = ["a-pub", "a-sub", "b-pub", "b-sub"].map((name) => connectRedis(redisUrl, { name }));
      const [aPub, aSub, bPub, bSub] = connections;
      const a = createRedisEventBus(aPub, aSub, onError);
      const b = createRedisEventBus(bPub, bSub, onError);
      return {
        a,
        b,
        errors,
        async ready() {
          await Promise.all([subscriptionsReady(aSub), subscriptionsReady(bSub)]);
        },
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
async function until(check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await sleep(10);
  }
}

describe.each(subjects)("EventBus contract: $name", (subject) => {
  let redis: TestRedis | null = null;
  let bus: BusSubject;
  const unsubscribes: Array<() => void> = [];
  beforeAll(async () => {
    if (subject.redis && !skipWithoutRedis) redis = await startTestRedis();
    if (!subject.redis || redis) bus = subject.open(redis?.url ?? "");
  });
  afterEach(() => {
    for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
    bus?.errors.splice(0);
  });
  afterAll(async () => {
    await bus?.close();
    await redis?.stop();
  });
  const skip = subject.redis && skipWithoutRedis;

  it.skipIf(skip)(
    "a publish on one process reaches the subscribers of every process, the publisher's included",
    async () => {
      const onA: unknown[] = [];
      const onB: unknown[] = [];
      unsubscribes.push(bus.a.subscribe("source.changed", (payload) => void onA.push(payload)));
      unsubscribes.push(bus.b.subscribe("source.changed", (payload) => void onB.push(payload)));
      await bus.ready();
      const payload = { companyId: "c1", sourceId: "s1", version: "v2" };
      await bus.a.publish("source.changed", payload);
      await until(() => onA.length === 1 && onB.length === 1);
      expect(onA).toEqual([payload]);
      expect(onB).toEqual([payload]);
      // Other events do not reach these subscribers.
      await bus.b.publish("company.changed", { companyId: "c1" });
      await bus.b.publish("source.changed", { companyId: "c1", sourceId: "s2" });
      await until(() => onA.length === 2 && onB.length === 2);
      expect(onA[1]).toEqual({ companyId: "c1", sourceId: "s2" });
    },
  );

  it.skipIf(skip)("unsubscribing stops delivery to that handler only", async () => {
    const stopped: unknown[] = [];
    const kept: unknown[] = [];
    const unsubscribe = bus.a.subscribe("dashboard.saved", (payload) => void stopped.push(payload));
    unsubscribes.push(bus.b.subscribe("dashboard.saved", (payload) => void kept.push(payload)));
    await bus.ready();
    await bus.b.publish("dashboard.saved", { companyId: "c1", dashboardId: "d1" });
    await until(() => stopped.length === 1 && kept.length === 1);
    unsubscribe();
    await bus.b.publish("dashboard.saved", { companyId: "c1", dashboardId: "d2" });
    await bus.a.publish("dashboard.saved", { companyId: "c1", dashboardId: "d3" });
    await until(() => kept.length === 3);
    // Give a stray delivery the time it would need to show up.
    await sleep(100);
    expect(stopped).toHaveLength(1);
  });

  it.skipIf(skip)("a throwing handler is reported through onError and later events still arrive", async () => {
    const seen: string[] = [];
    const calls: string[] = [];
    unsubscribes.push(
      bus.a.subscribe("session.revoked", (payload) => {
        calls.push(payload.userId ?? "");
        throw new Error(`handler broke on ${payload.userId}`);
      }),
    );
    unsubscribes.push(
      bus.b.subscribe("session.revoked", async (payload) => {
        await sleep(1);
        seen.push(payload.userId ?? "");
      }),
    );
    await bus.ready();
    await expect(bus.a.publish("session.revoked", { userId: "u1" })).resolves.toBeUndefined();
    await expect(bus.b.publish("session.revoked", { userId: "u2" })).resolves.toBeUndefined();
    await until(() => seen.length === 2 && bus.errors.length === 2);
    expect(seen).toEqual(["u1", "u2"]);
    expect(calls).toEqual(["u1", "u2"]);
    expect(bus.errors.map((entry) => entry.name)).toEqual(["session.revoked", "session.revoked"]);
    expect((bus.errors[0].error as Error).message).toBe("handler broke on u1");
  });
});
