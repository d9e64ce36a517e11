import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { until } from "../../test/wait";
import { manualClock, systemClock } from "./clock";
import { type DbHandle, migrateToLatest, openDatabase } from "./db";
import { createDatabaseJobQueue, type DatabaseJobQueueOptions, nextScheduledRun } from "./db-jobs";
import type { JobDefinition } from "./jobs";

const logger = pino({ level: "silent" });
const targets = process.env.TEST_DATABASE_URL ? (["sqlite", "postgres"] as const) : (["sqlite"] as const);

/** A fresh database of the target kind; `open()` gives another connection to it (another process). */
async function freshDatabase(target: "sqlite" | "postgres") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-jobs-"));
  let databaseUrl: string | null = null;
  let dropName: string | null = null;
  if (target === "postgres") {
    const admin = process.env.TEST_DATABASE_URL as string;
    dropName = `t_jobs_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${dropName}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${dropName}`;
    databaseUrl = url.toString();
  }
  const handles: DbHandle[] = [];
  const open = () => {
    const handle = openDatabase({ databaseUrl, sqlitePath: path.join(dir, "jobs.sqlite") });
    handles.push(handle);
    return handle.db;
  };
  await migrateToLatest(open());
  return {
    open,
    async close() {
      for (const handle of handles) await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
      if (dropName) {
        const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL as string });
        await client.connect();
        // Without FORCE: the pools above are closed; a connection still closing only delays the drop.
        for (let attempt = 0; ; attempt++) {
          try {
            await client.query(`DROP DATABASE IF EXISTS ${dropName}`);
            break;
          } catch (error) {
            if (attempt >= 20) throw error;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        await client.end();
      }
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const target of targets) {
  describe(`database job queue [${target}]`, () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    const queues: { close(): Promise<void> }[] = [];
    const queue = (options: Partial<DatabaseJobQueueOptions> = {}) => {
      const q = createDatabaseJobQueue({ db: options.db ?? database.open(), clock: systemClock, logger, ...options });
      queues.push(q);
      return q;
    };

    beforeAll(async () => {
      database = await freshDatabase(target);
    });
    afterEach(async () => {
      for (const q of queues.splice(0)) await q.close();
    });
    afterAll(async () => {
      await database.close();
    });

    it("refuses an unknown job and a payload its schema rejects, at enqueue", async () => {
      const q = queue();
      q.define({ name: "t.valid", payload: z.object({ reportId: z.string().min(1) }), handle: async () => {} });
      await expect(q.enqueue("t.nope", {})).rejects.toThrow(/Unknown job/);
      await expect(q.enqueue("t.valid", { reportId: 5 })).rejects.toThrow();
      await expect(q.enqueue("t.valid", { reportId: "" })).rejects.toThrow();
      expect(await q.list("t.valid", "waiting")).toEqual([]);
    });

    it("runs a key once: a second enqueue waiting or done does nothing, a failed one is tried again", async () => {
      const clock = manualClock("2026-03-01T10:00:00Z");
      const q = queue({ clock });
      const runs: string[] = [];
      let failNext = false;
      q.define({
        name: "t.key",
        payload: z.object({ reportId: z.string(), at: z.string() }),
        key: (p) => `${p.reportId}@${p.at}`,
        retry: { attempts: 1, backoffMs: 10 },
        handle: async (p) => {
          runs.push(p.reportId);
          if (failNext) throw new Error("smtp down");
        },
      });
      const first = await q.enqueue("t.key", { reportId: "r1", at: "2026-03-01" });
      const second = await q.enqueue("t.key", { reportId: "r1", at: "2026-03-01" });
      expect(first.duplicate).toBe(false);
      expect(second).toEqual({ id: first.id, duplicate: true });
      expect(await q.runDue()).toBe(1);
      expect(await q.enqueue("t.key", { reportId: "r1", at: "2026-03-01" })).toEqual({ id: first.id, duplicate: true });
      expect(await q.runDue()).toBe(0);
      expect(runs).toEqual(["r1"]);
      // An explicit key overrides the definition's.
      const other = await q.enqueue("t.key", { reportId: "r1", at: "2026-03-01" }, { key: "manual" });
      expect(other.duplicate).toBe(false);
      failNext = true;
      await q.runDue();
      expect((await q.list("t.key", "failed")).map((j) => j.key)).toEqual(["manual"]);
      failNext = false;
      expect(await q.enqueue("t.key", { reportId: "r1", at: "x" }, { key: "manual" })).toEqual({
        id: other.id,
        duplicate: false,
      });
      await q.runDue();
      expect((await q.list("t.key", "completed")).map((j) => j.id).sort()).toEqual([first.id, other.id].sort());
      expect(runs).toEqual(["r1", "r1", "r1"]);
    });

    it("retries with exponential backoff, then keeps the job as failed with its error", async () => {
      const clock = manualClock("2026-03-01T10:00:00Z");
      const q = queue({ clock });
      const attempts: number[] = [];
      q.define({
        name: "t.flaky",
        payload: z.object({}),
        retry: { attempts: 3, backoffMs: 1000 },
        handle: async (_p, context) => {
          attempts.push(context.attempt);
          throw new Error(`upstream 503 on attempt ${context.attempt}`);
        },
      });
      const { id } = await q.enqueue("t.flaky", {});
      expect(await q.runDue()).toBe(1);
      expect((await q.list("t.flaky", "delayed"))[0]).toMatchObject({
        id,
        attempts: 1,
        error: "upstream 503 on attempt 1",
      });
      clock.advance(999);
      expect(await q.runDue()).toBe(0);
      clock.advance(1);
      expect(await q.runDue()).toBe(1);
      clock.advance(1999); // second backoff is 2 s
      expect(await q.runDue()).toBe(0);
      clock.advance(1);
      expect(await q.runDue()).toBe(1);
      expect(attempts).toEqual([1, 2, 3]);
      const [failed] = await q.list("t.flaky", "failed");
      expect(failed).toMatchObject({ id, attempts: 3, error: "upstream 503 on attempt 3" });
      expect(failed.finishedAt).toBe("2026-03-01T10:00:03.000Z");
      clock.advance(60_000);
      expect(await q.runDue()).toBe(0);
      expect((await q.counts()).failed).toBe(1);
    });

    it("succeeds on a retry after a failure", async () => {
      const clock = manualClock("2026-03-01T10:00:00Z");
      const q = queue({ clock });
      let calls = 0;
      q.define({
        name: "t.second",
        payload: z.object({ n: z.number() }),
        retry: { attempts: 2, backoffMs: 50 },
        handle: async () => {
          calls++;
          if (calls === 1) throw new Error("once");
        },
      });
      const { id } = await q.enqueue("t.second", { n: 1 });
      await q.runDue();
      clock.advance(50);
      await q.runDue();
      expect(await q.list("t.second", "completed")).toMatchObject([{ id, attempts: 2, payload: { n: 1 } }]);
    });

    it("aborts an attempt beyond timeoutMs through its signal and counts it as a failure", async () => {
      const q = queue({ clock: manualClock("2026-03-01T10:00:00Z") });
      let aborted = false;
      q.define({
        name: "t.slow",
        payload: z.object({}),
        timeoutMs: 50,
        retry: { attempts: 1, backoffMs: 1 },
        handle: (_p, { signal }) =>
          new Promise<void>((resolve) => {
            signal.addEventListener("abort", () => {
              aborted = true;
              // A handler that cleans up slowly still cannot hold the runner.
              setTimeout(resolve, 5_000);
            });
          }),
      });
      await q.enqueue("t.slow", {});
      const started = Date.now();
      await q.runDue();
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(aborted).toBe(true);
      expect((await q.list("t.slow", "failed"))[0].error).toBe("timed out after 50 ms");
    });

    it("retakes the job of a crashed runner once its lease expires, and the dead runner cannot overwrite it", async () => {
      const clock = manualClock("2026-03-01T10:00:00Z");
      const hung = queue({ clock, leaseMs: 60_000, graceMs: 10, owner: "crashed" });
      const rescuer = queue({ clock, leaseMs: 60_000, owner: "rescuer" });
      const ranBy: string[] = [];
      const define = (q: typeof hung, name: string, hang: boolean) =>
        q.define({
          name: "t.lease",
          payload: z.object({}),
          handle: async () => {
            ranBy.push(name);
            if (hang) await new Promise(() => {}); // the process "dies" here: nothing ever settles
          },
        });
      define(hung, "crashed", true);
      define(rescuer, "rescuer", false);
      const { id } = await hung.enqueue("t.lease", {});
      void hung.runDue();
      await until(async () => (await rescuer.list("t.lease", "active")).length === 1);
      expect(await rescuer.runDue()).toBe(0); // the lease is still valid
      clock.advance(60_001);
      expect(await rescuer.runDue()).toBe(1);
      expect(ranBy).toEqual(["crashed", "rescuer"]);
      // The crashed runner finally shuts down: it must not put the finished job back.
      await hung.close();
      expect(await rescuer.list("t.lease", "completed")).toMatchObject([{ id, attempts: 2 }]);
    });

    it("gives running jobs back on shutdown after the grace period, without using up an attempt", async () => {
      const q = queue({ graceMs: 50 });
      let sawAbort = false;
      q.define({
        name: "t.shutdown",
        payload: z.object({}),
        handle: (_p, { signal }) =>
          new Promise<void>((_resolve, reject) => {
            signal.addEventListener("abort", () => {
              sawAbort = true;
              reject(signal.reason);
            });
          }),
      });
      await q.start();
      const { id } = await q.enqueue("t.shutdown", {});
      await until(async () => (await q.list("t.shutdown", "active")).length === 1);
      await q.close();
      expect(sawAbort).toBe(true);
      expect(await q.list("t.shutdown", "waiting")).toMatchObject([{ id, attempts: 0, error: null }]);
      const next = queue();
      const ran: string[] = [];
      next.define({ name: "t.shutdown", payload: z.object({}), handle: async (_p, c) => void ran.push(c.jobId) });
      await next.runDue();
      expect(ran).toEqual([id]);
    });

    it("wakes at once on a local enqueue instead of waiting for the poll", async () => {
      const q = queue({ pollMs: 60_000 });
      let ranAt = 0;
      q.define({
        name: "t.wake",
        payload: z.object({}),
        handle: async () => {
          ranAt = Date.now();
        },
      });
      await q.start();
      const enqueuedAt = Date.now();
      await q.enqueue("t.wake", {});
      await until(() => ranAt > 0, 2_000);
      expect(ranAt - enqueuedAt).toBeLessThan(1_000);
    });

    it("runs a job woken by an enqueue inside a request outside that request's async context", async () => {
      // The request's stores (the broadcast's origin socket, the audit actor) must not follow its jobs.
      const request = new AsyncLocalStorage<string>();
      const q = queue({ pollMs: 60_000 });
      const seen: (string | undefined)[] = [];
      q.define({
        name: "t.context",
        payload: z.object({ n: z.number() }),
        handle: async () => void seen.push(request.getStore()),
      });
      await q.start();
      await request.run("socket-of-the-page", async () => {
        await q.enqueue("t.context", { n: 1 });
        // A second enqueue while the first pass may still run: the pass it wakes is the same loop.
        await q.enqueue("t.context", { n: 2 });
      });
      await until(() => seen.length === 2, 2_000);
      expect(seen).toEqual([undefined, undefined]);
    });

    it("runs a schedule once per due time across a restart and with two runners", async () => {
      const clock = manualClock("2026-03-01T10:00:30Z");
      const runs: string[] = [];
      const scheduled = (owner: string) => {
        const q = queue({ clock, owner });
        q.define({
          name: "t.every-minute",
          payload: z.object({}),
          schedule: { everyMs: 60_000 },
          handle: async (_p, c) => void runs.push(`${owner}:${c.jobId}`),
        });
        return q;
      };
      const a = scheduled("a");
      const b = scheduled("b");
      expect(await a.runDue()).toBe(0);
      clock.advance(30_000); // 10:01:00 is due
      const [ranA, ranB] = await Promise.all([a.runDue(), b.runDue()]);
      expect(ranA + ranB).toBe(1);
      expect(runs).toHaveLength(1);
      // A restart of both: the due time already ran, nothing runs again.
      await a.close();
      await b.close();
      const a2 = scheduled("a2");
      expect(await a2.runDue()).toBe(0);
      clock.advance(59_999);
      expect(await a2.runDue()).toBe(0);
      clock.advance(1); // 10:02:00
      expect(await a2.runDue()).toBe(1);
      // Everything was down for five minutes: the missed runs collapse into one.
      clock.advance(5 * 60_000);
      expect(await a2.runDue()).toBe(1);
      const keys = (await a2.list("t.every-minute", "completed")).map((j) => j.key).sort();
      expect(keys).toEqual([
        "t.every-minute@2026-03-01T10:01:00.000Z",
        "t.every-minute@2026-03-01T10:02:00.000Z",
        "t.every-minute@2026-03-01T10:03:00.000Z",
      ]);
    });

    it("runs a cron schedule in its timezone", async () => {
      const clock = manualClock("2026-03-01T06:00:00Z");
      const q = queue({ clock });
      const ran: string[] = [];
      q.define({
        name: "t.morning",
        payload: z.object({}),
        schedule: { cron: "0 8 * * *", timezone: "Europe/Paris" },
        handle: async () => void ran.push(clock.now().toISOString()),
      });
      expect(await q.runDue()).toBe(0);
      clock.set("2026-03-01T07:00:00Z"); // 08:00 in Paris (UTC+1 in March before the change)
      expect(await q.runDue()).toBe(1);
      clock.set("2026-03-02T06:59:59Z");
      expect(await q.runDue()).toBe(0);
      expect(ran).toEqual(["2026-03-01T07:00:00.000Z"]);
    });

    it("never runs a job twice when two runners on separate connections share 50 jobs", async () => {
      const runs = new Map<string, number>();
      const runners = ["one", "two"].map((owner) => {
        const q = queue({ owner, pollMs: 25, concurrency: 4 });
        q.define({
          name: "t.many",
          payload: z.object({ n: z.number() }),
          key: (p) => `n${p.n}`,
          handle: async (_p, c) => {
            runs.set(c.jobId, (runs.get(c.jobId) ?? 0) + 1);
            await sleep(Math.random() * 10);
          },
        });
        return q;
      });
      await Promise.all(runners.map((r) => r.start()));
      for (let n = 0; n < 50; n++) await runners[n % 2].enqueue("t.many", { n });
      await until(async () => (await runners[0].list("t.many", "completed", 100)).length === 50, 20_000);
      expect(runs.size).toBe(50);
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
      const completed = await runners[0].list("t.many", "completed", 100);
      expect(completed.every((job) => job.attempts === 1)).toBe(true);
    });
  });
}

describe("nextScheduledRun", () => {
  it("aligns everyMs on the epoch and is strictly after the given time", () => {
    const schedule: JobDefinition["schedule"] = { everyMs: 60_000 };
    expect(nextScheduledRun(schedule, new Date("2026-03-01T10:00:00Z")).toISOString()).toBe("2026-03-01T10:01:00.000Z");
    expect(nextScheduledRun(schedule, new Date("2026-03-01T10:00:59.999Z")).toISOString()).toBe(
      "2026-03-01T10:01:00.000Z",
    );
    expect(nextScheduledRun({ cron: "*/15 * * * *" }, new Date("2026-03-01T10:15:00Z")).toISOString()).toBe(
      "2026-03-01T10:30:00.000Z",
    );
  });
});
