import { AsyncResource } from "node:async_hooks";
import os from "node:os";
import type { Logger } from "pino";
import type { Clock } from "./clock";
import type { Db } from "./db";
import { launchStep } from "./db-jobs-launch";
import { leaseSteps } from "./db-jobs-leases";
import { type JobRunner, ShutdownAbort } from "./db-jobs-runner";
import { scheduleSteps } from "./db-jobs-schedules";
import { storeSteps } from "./db-jobs-store";
import type { JobDefinition, JobQueue } from "./jobs";
import { newId } from "./security";

/**
 * The embedded job queue: jobs and schedules are rows of the application database, so a restart
 * loses none, and several runners on one PostgreSQL database share them safely. Every hand-over is a
 * conditional UPDATE (claim a due job, take an expired lease, advance a schedule): the database lets
 * exactly one runner's update match, the others see zero rows and move on.
 */
export interface DatabaseJobQueueOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Jobs one runner runs at once. */
  concurrency?: number;
  /** How often a started runner looks for due jobs that it was not woken for (other processes, retries, schedules). */
  pollMs?: number;
  /** How long a claimed job stays this runner's without a renewal; a crashed runner's jobs are retaken after it. */
  leaseMs?: number;
  /** How long `close()` lets running jobs finish before aborting them (they are then released, not failed). */
  graceMs?: number;
  /** Identifies this runner in lease columns (host, pid and a random suffix by default). */
  owner?: string;
}

export interface DatabaseJobQueue extends JobQueue {
  /**
   * Claims and runs everything due now (schedules included) until nothing is left, and resolves once
   * those jobs settled. For tests with a manual clock; the started runner does the same on its own.
   */
  runDue(): Promise<number>;
  /** The lease owner written by this runner. */
  readonly owner: string;
}

export { nextScheduledRun } from "./db-jobs-schedules";

/**
 * The embedded job queue, assembled from its parts (db-jobs-runner.ts lists what they share): schedules,
 * leases, running one job, and the rows callers add and read. What stays here is the runner's loop —
 * one pass at a time, woken by enqueues, finished jobs and a poll — and its start and shutdown.
 */
export function createDatabaseJobQueue(options: DatabaseJobQueueOptions): DatabaseJobQueue {
  const { db, clock, logger } = options;
  const concurrency = options.concurrency ?? 4;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? 30_000;
  const graceMs = options.graceMs ?? 5000;
  const owner = options.owner ?? `${os.hostname()}:${process.pid}:${newId(4)}`;

  // biome-ignore lint/suspicious/noExplicitAny: definitions of every payload type share one map
  const definitions = new Map<string, JobDefinition<any>>();
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let started = false;
  let stopping = false;
  let poller: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  let tickAgain = false;

  const runner: JobRunner = {
    db,
    clock,
    logger,
    concurrency,
    leaseMs,
    owner,
    definitions,
    running,
    schedulesSynced: false,
    definitionOf,
    wake,
  };
  const { syncSchedules, fireSchedules } = scheduleSteps(runner);
  const leases = leaseSteps(runner);
  const { claimOne, release } = leases;
  const launch = launchStep(runner, leases);

  function definitionOf(name: string) {
    const definition = definitions.get(name);
    if (!definition) throw new Error(`Unknown job "${name}": define it before enqueueing it`);
    return definition;
  }

  /**
   * One pass: fire due schedules, then fill free slots with due jobs. Returns how many jobs it launched.
   * It runs in the async context the queue was made in (the process starting), never in that of whoever
   * woke it: an enqueue inside a request wakes a pass at once, and the jobs that pass launched would
   * otherwise carry the request's AsyncLocalStorage stores — the origin socket of infra/broadcast.ts left
   * the very page that added a domain out of the news of its alerts, and the audit log took the request's
   * member for the job's actor (features/audit/request-context.ts: jobs have none).
   */
  const tick = AsyncResource.bind(async (): Promise<number> => {
    if (!runner.schedulesSynced) await syncSchedules();
    await fireSchedules();
    let launched = 0;
    while (!stopping && running.size < concurrency) {
      const row = await claimOne();
      if (!row) break;
      if (stopping) {
        await release(row);
        break;
      }
      launch(row);
      launched++;
    }
    return launched;
  });

  /** Runs a pass now (or right after the current one), without overlapping passes. */
  function wake() {
    if (!started || stopping) return;
    if (ticking) {
      tickAgain = true;
      return;
    }
    ticking = (async () => {
      do {
        tickAgain = false;
        try {
          await tick();
        } catch (error) {
          logger.error({ err: error }, "job runner pass failed");
        }
      } while (tickAgain && !stopping);
      ticking = null;
    })();
  }

  return {
    owner,
    ...storeSteps(runner),

    define(definition) {
      if (definitions.has(definition.name)) throw new Error(`Job "${definition.name}" is defined twice`);
      definitions.set(definition.name, definition as JobDefinition<unknown>);
      runner.schedulesSynced = false;
    },

    async start() {
      if (started) return;
      started = true;
      stopping = false;
      await syncSchedules();
      // Not unref'd: a started runner is reason enough for a worker process to stay alive; close() stops it.
      poller = setInterval(wake, pollMs);
      wake();
    },

    async runDue() {
      if (ticking) await ticking;
      let total = 0;
      for (;;) {
        const launched = await tick();
        await Promise.all([...running.values()].map((r) => r.done));
        total += launched;
        if (launched === 0) return total;
      }
    },

    async close() {
      stopping = true;
      if (poller) clearInterval(poller);
      poller = null;
      if (ticking) await ticking;
      const settled = Promise.all([...running.values()].map((r) => r.done));
      let graceTimer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<"grace">((resolve) => {
        graceTimer = setTimeout(() => resolve("grace"), graceMs);
      });
      const outcome = await Promise.race([settled.then(() => "settled" as const), graceOver]);
      if (graceTimer) clearTimeout(graceTimer);
      if (outcome === "grace") {
        for (const entry of running.values()) entry.controller.abort(new ShutdownAbort());
        await Promise.all([...running.values()].map((r) => r.done));
      }
      started = false;
    },
  };
}
