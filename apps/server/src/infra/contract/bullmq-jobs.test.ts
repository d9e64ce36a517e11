import { Queue } from "bullmq";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { skipWithoutRedis, startTestRedis, type TestRedis } from "../../../test/redis";
import { createBullJobQueue } from "../distributed/bullmq-jobs";
import type { JobDefinition, JobQueue } from "../jobs";

/**
 * The distributed job queue against a real Redis. (The embedded, database-backed queue has the same
 * promises proven in db-jobs.test.ts.) Every test has its own queue name, so nothing leaks between them.
 */

const logger = pino({ level: "silent" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => Promise<boolean> | boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await sleep(25);
  }
}

let seq = 0;

describe.skipIf(skipWithoutRedis)("BullMQ job queue", () => {
  let redis: TestRedis;
  const open: JobQueue[] = [];
  let queueName = "";
  /** A queue instance (one process) on this test's queue. */
  const instance = (options: { closeGraceMs?: number } = {}) => {
    const queue = createBullJobQueue({ redisUrl: redis.url, logger, queueName, lockDurationMs: 5000, ...options });
    open.push(queue);
    return queue;
  };

  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((queue) => queue.close()));
    queueName = "";
  });
  afterAll(async () => {
    await redis?.stop();
  });
  // Each test gets a fresh queue name before it builds instances.
  const fresh = () => {
    queueName = `test-${Date.now().toString(36)}-${seq++}`;
  };

  it("validates the payload when a job is enqueued", async () => {
    fresh();
    const queue = instance();
    queue.define({ name: "t.echo", payload: z.object({ n: z.number().int() }), handle: async () => {} });
    await expect(queue.enqueue("t.echo", { n: "one" })).rejects.toThrow();
    await expect(queue.enqueue("t.unknown", {})).rejects.toThrow(/Unknown job/);
    expect((await queue.counts()).waiting).toBe(0);
    const { duplicate } = await queue.enqueue("t.echo", { n: 1 });
    expect(duplicate).toBe(false);
    expect((await queue.counts()).waiting).toBe(1);
  });

  it("runs a key once: a duplicate key is refused while waiting and after it is done", async () => {
    fresh();
    const queue = instance();
    const runs: string[] = [];
    queue.define<{ reportId: string; at: string }>({
      name: "t.send",
      payload: z.object({ reportId: z.string(), at: z.string() }),
      key: (payload) => `${payload.reportId}:${payload.at}`,
      handle: async (payload) => {
        runs.push(payload.reportId);
      },
    });
    const payload = { reportId: "r1", at: "2026-01-01T08:00" };
    const first = await queue.enqueue("t.send", payload);
    const second = await queue.enqueue("t.send", payload);
    expect(first.duplicate).toBe(false);
    expect(second).toEqual({ id: first.id, duplicate: true });
    // Two processes racing on the same key still make one job.
    await Promise.all([
      queue.enqueue("t.send", { reportId: "r2", at: "x" }),
      queue.enqueue("t.send", { reportId: "r2", at: "x" }),
    ]);
    await queue.start();
    await until(async () => (await queue.counts()).completed === 2);
    expect((await queue.enqueue("t.send", payload)).duplicate).toBe(true);
    await sleep(200);
    expect(runs.sort()).toEqual(["r1", "r2"]);
    const [done] = await queue.list("t.send", "completed");
    expect(done.key).not.toBeNull();
  });

  it("retries a failing job with backoff, then keeps it failed with its error", async () => {
    fresh();
    const queue = instance();
    const attempts: Array<{ attempt: number; at: number }> = [];
    queue.define({
      name: "t.flaky",
      payload: z.object({}),
      retry: { attempts: 3, backoffMs: 100 },
      handle: async (_payload, context) => {
        attempts.push({ attempt: context.attempt, at: Date.now() });
        throw new Error(`upstream refused (attempt ${context.attempt})`);
      },
    });
    await queue.enqueue("t.flaky", {});
    await queue.start();
    await until(async () => (await queue.list("t.flaky", "failed")).length === 1);
    expect(attempts.map((entry) => entry.attempt)).toEqual([1, 2, 3]);
    // Exponential backoff: about 100 ms, then about 200 ms.
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(90);
    expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(190);
    const [failed] = await queue.list("t.flaky", "failed");
    expect(failed).toMatchObject({
      name: "t.flaky",
      state: "failed",
      attempts: 3,
      error: "upstream refused (attempt 3)",
    });
    expect(failed.finishedAt).not.toBeNull();
    expect((await queue.counts()).failed).toBe(1);
    await sleep(300);
    expect(attempts).toHaveLength(3);
  });

  it("counts jobs per state", async () => {
    fresh();
    const queue = instance();
    queue.define({ name: "t.count", payload: z.object({ i: z.number() }), handle: async () => {} });
    await queue.enqueue("t.count", { i: 1 });
    await queue.enqueue("t.count", { i: 2 });
    await queue.enqueue("t.count", { i: 3 }, { runAt: new Date(Date.now() + 60_000) });
    expect(await queue.counts()).toEqual({ waiting: 2, delayed: 1, active: 0, completed: 0, failed: 0 });
    expect(await queue.list("t.count", "waiting")).toHaveLength(2);
    expect(await queue.list("t.count", "delayed")).toHaveLength(1);
    await queue.start();
    await until(async () => (await queue.counts()).completed === 2);
    expect(await queue.counts()).toEqual({ waiting: 0, delayed: 1, active: 0, completed: 2, failed: 0 });
  });

  it("two started instances run 40 jobs exactly once in total", async () => {
    fresh();
    const runs = new Map<number, number>();
    const definition: JobDefinition<{ i: number }> = {
      name: "t.work",
      payload: z.object({ i: z.number() }),
      handle: async (payload) => {
        await sleep(5);
        runs.set(payload.i, (runs.get(payload.i) ?? 0) + 1);
      },
    };
    const [one, two] = [instance(), instance()];
    one.define(definition);
    two.define(definition);
    await Promise.all([one.start(), two.start()]);
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).enqueue("t.work", { i })));
    await until(async () => (await one.counts()).completed === 40);
    await sleep(200);
    expect(runs.size).toBe(40);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });

  it("a schedule defined and started by two instances runs, under one scheduler", async () => {
    fresh();
    const runs: string[] = [];
    const definition: JobDefinition<Record<string, never>> = {
      name: "t.tick",
      payload: z.object({}).strict(),
      schedule: { everyMs: 250 },
      handle: async (_payload, context) => {
        runs.push(context.jobId);
      },
    };
    const [one, two] = [instance(), instance()];
    one.define(definition);
    two.define(definition);
    await Promise.all([one.start(), two.start()]);
    await until(() => runs.length >= 2, 10_000);
    const inspector = new Queue(queueName, { connection: { url: redis.url } });
    try {
      const schedulers = await inspector.getJobSchedulers();
      expect(schedulers).toHaveLength(1);
      expect(schedulers[0]).toMatchObject({ key: "t.tick", every: 250 });
    } finally {
      await inspector.close();
    }
    // Each scheduled run is its own job, run once.
    expect(new Set(runs).size).toBe(runs.length);
  });

  it("close() lets a running job finish", async () => {
    fresh();
    const queue = instance();
    let started = false;
    let finished = false;
    queue.define({
      name: "t.slow",
      payload: z.object({}),
      handle: async (_payload, context) => {
        started = true;
        await sleep(400);
        finished = !context.signal.aborted;
      },
    });
    await queue.enqueue("t.slow", {});
    await queue.start();
    await until(() => started);
    await queue.close();
    expect(finished).toBe(true);
    const observer = instance();
    observer.define({ name: "t.slow", payload: z.object({}), handle: async () => {} });
    expect(await observer.list("t.slow", "completed")).toHaveLength(1);
  });

  it("an attempt beyond timeoutMs is aborted through its signal and fails", async () => {
    fresh();
    const queue = instance();
    const reasons: unknown[] = [];
    queue.define({
      name: "t.stuck",
      payload: z.object({}),
      timeoutMs: 150,
      retry: { attempts: 1, backoffMs: 10 },
      handle: (_payload, context) =>
        new Promise<void>((resolve) => {
          context.signal.addEventListener("abort", () => {
            reasons.push(context.signal.reason);
            resolve();
          });
        }),
    });
    await queue.enqueue("t.stuck", {});
    await queue.start();
    await until(async () => (await queue.list("t.stuck", "failed")).length === 1);
    expect(reasons).toHaveLength(1);
    expect((reasons[0] as Error).message).toMatch(/timed out after 150 ms/);
    const [failed] = await queue.list("t.stuck", "failed");
    expect(failed.error).toMatch(/timed out after 150 ms/);
  });
});

describe.skipIf(skipWithoutRedis)("BullMQ job queue: a handler that fails after its timeout", () => {
  it("fails with the timeout, and its late rejection changes nothing", async () => {
    const redis = await startTestRedis();
    const queue = createBullJobQueue({ redisUrl: redis.url, logger, queueName: `late-${Date.now().toString(36)}` });
    try {
      let rejectedLate = false;
      queue.define({
        name: "t.late",
        payload: z.object({}),
        timeoutMs: 100,
        retry: { attempts: 1, backoffMs: 10 },
        handle: async () => {
          await sleep(300);
          rejectedLate = true;
          throw new Error("gave up late");
        },
      });
      await queue.enqueue("t.late", {});
      await queue.start();
      await until(async () => (await queue.list("t.late", "failed")).length === 1);
      const [failed] = await queue.list("t.late", "failed");
      expect(failed.error).toMatch(/timed out after 100 ms/);
      // The late rejection happens inside this test (Vitest would report it if it escaped) and leaves the record alone.
      await until(() => rejectedLate);
      await sleep(50);
      expect((await queue.list("t.late", "failed"))[0].error).toMatch(/timed out after 100 ms/);
    } finally {
      await queue.close();
      await redis.stop();
    }
  });
});
