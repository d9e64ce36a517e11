import os from "node:os";
import { CronExpressionParser } from "cron-parser";
import { sql } from "kysely";
import type { Logger } from "pino";
import type { Clock } from "./clock";
import type { Db } from "./db";
import type { JobsTable } from "./db/schema";
import type { JobDefinition, JobQueue, JobRecord, JobState } from "./jobs";
import { recordJob } from "./metrics";
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

type Schedule = NonNullable<JobDefinition["schedule"]>;

const DEFAULT_RETRY = { attempts: 3, backoffMs: 1000 };
const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/** The first due time of a schedule strictly after `after`. `everyMs` runs are aligned on the epoch so every process computes the same times. */
export function nextScheduledRun(schedule: Schedule, after: Date): Date {
  if ("everyMs" in schedule) {
    const every = schedule.everyMs;
    return new Date((Math.floor(after.getTime() / every) + 1) * every);
  }
  const expression = CronExpressionParser.parse(schedule.cron, {
    currentDate: after,
    tz: schedule.timezone ?? "UTC",
  });
  return expression.next().toDate();
}

function patternOf(schedule: Schedule): string {
  return "everyMs" in schedule ? `every ${schedule.everyMs}` : `cron ${schedule.cron} ${schedule.timezone ?? "UTC"}`;
}

/** Thrown into a job's signal and race when the runner shuts down: the job goes back to the queue. */
class ShutdownAbort extends Error {
  constructor() {
    super("the job runner is shutting down");
  }
}

/** A failure that retrying cannot fix (a payload that no longer matches its schema). */
class PermanentJobError extends Error {}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

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
  let schedulesSynced = false;
  let poller: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  let tickAgain = false;

  const iso = (date: Date) => date.toISOString();
  const later = (ms: number) => iso(new Date(clock.now().getTime() + ms));

  function definitionOf(name: string) {
    const definition = definitions.get(name);
    if (!definition) throw new Error(`Unknown job "${name}": define it before enqueueing it`);
    return definition;
  }

  /** Creates missing schedule rows and moves the next run of a schedule whose pattern changed. */
  async function syncSchedules() {
    const now = clock.now();
    for (const definition of definitions.values()) {
      if (!definition.schedule) continue;
      const pattern = patternOf(definition.schedule);
      const next = iso(nextScheduledRun(definition.schedule, now));
      const existing = await db
        .selectFrom("job_schedules")
        .selectAll()
        .where("name", "=", definition.name)
        .executeTakeFirst();
      if (!existing) {
        await db
          .insertInto("job_schedules")
          .values({ name: definition.name, next_run_at: next, pattern, updated_at: iso(now) })
          .onConflict((oc) => oc.column("name").doNothing())
          .execute();
      } else if (existing.pattern !== pattern) {
        await db
          .updateTable("job_schedules")
          .set({ next_run_at: next, pattern, updated_at: iso(now) })
          .where("name", "=", definition.name)
          .where("pattern", "=", existing.pattern)
          .execute();
      }
    }
    schedulesSynced = true;
  }

  /**
   * Turns each due schedule into one job whose key is name@due time: the unique key, not a lock, is
   * what makes a due time run once across runners and restarts. Advancing `next_run_at` is a
   * conditional update from the value read, so concurrent runners never skip a due time either.
   * Missed runs while everything was down collapse into one. (No interactive transaction: two SQLite
   * connections in one process would deadlock on it.)
   */
  async function fireSchedules() {
    const names = [...definitions.values()].filter((d) => d.schedule).map((d) => d.name);
    if (names.length === 0) return;
    const now = clock.now();
    const due = await db
      .selectFrom("job_schedules")
      .selectAll()
      .where("name", "in", names)
      .where("next_run_at", "<=", iso(now))
      .execute();
    for (const row of due) {
      const definition = definitionOf(row.name);
      const schedule = definition.schedule as Schedule;
      const payload = JSON.stringify(definition.payload.parse({}));
      const retry = definition.retry ?? DEFAULT_RETRY;
      // Job first, then the schedule: the key makes the insert happen once per due time whoever gets
      // there, and a crash in between only means the next pass advances the schedule.
      await db
        .insertInto("jobs")
        .values({
          id: newId(),
          name: row.name,
          key: `${row.name}@${row.next_run_at}`,
          payload,
          state: "waiting",
          attempts: 0,
          max_attempts: Math.max(1, retry.attempts),
          run_at: iso(now),
          lease_owner: null,
          lease_expires_at: null,
          last_error: null,
          created_at: iso(now),
          updated_at: iso(now),
          finished_at: null,
        })
        .onConflict((oc) => oc.columns(["name", "key"]).doNothing())
        .execute();
      await db
        .updateTable("job_schedules")
        .set({ next_run_at: iso(nextScheduledRun(schedule, now)), updated_at: iso(now) })
        .where("name", "=", row.name)
        .where("next_run_at", "=", row.next_run_at)
        .execute();
    }
  }

  /** Takes one due job (or one whose runner's lease expired) for this runner, or null when none. */
  async function claimOne(): Promise<JobsTable | null> {
    const names = [...definitions.keys()];
    if (names.length === 0) return null;
    const now = iso(clock.now());
    const candidates = await db
      .selectFrom("jobs")
      .select("id")
      .where("name", "in", names)
      .where((eb) =>
        eb.or([
          eb.and([eb("state", "in", ["waiting", "delayed"]), eb("run_at", "<=", now)]),
          eb.and([eb("state", "=", "active"), eb("lease_expires_at", "<=", now)]),
        ]),
      )
      .orderBy("run_at")
      // First in, first out among jobs due at the same moment (a queue, as BullMQ's).
      .orderBy("created_at")
      .limit(concurrency * 2 + 4)
      .execute();
    for (const candidate of candidates) {
      if (running.has(candidate.id)) continue;
      const claimed = await db
        .updateTable("jobs")
        .set({
          state: "active",
          lease_owner: owner,
          lease_expires_at: later(leaseMs),
          attempts: sql<number>`attempts + 1`,
          updated_at: now,
        })
        .where("id", "=", candidate.id)
        .where((eb) =>
          eb.or([
            eb.and([eb("state", "in", ["waiting", "delayed"]), eb("run_at", "<=", now)]),
            eb.and([eb("state", "=", "active"), eb("lease_expires_at", "<=", now)]),
          ]),
        )
        .returningAll()
        .executeTakeFirst();
      if (claimed) return claimed;
    }
    return null;
  }

  /** Updates a job this runner still holds; another runner that took over an expired lease is never overwritten. */
  function updateOwned(id: string) {
    return db.updateTable("jobs").where("id", "=", id).where("state", "=", "active").where("lease_owner", "=", owner);
  }

  async function complete(row: JobsTable) {
    const now = iso(clock.now());
    await updateOwned(row.id)
      .set({ state: "completed", finished_at: now, updated_at: now, lease_owner: null, lease_expires_at: null })
      .execute();
  }

  async function fail(row: JobsTable, error: unknown) {
    const message = messageOf(error).slice(0, 2000);
    const now = clock.now();
    const definition = definitions.get(row.name);
    const backoffMs = (definition?.retry ?? DEFAULT_RETRY).backoffMs;
    if (error instanceof PermanentJobError || row.attempts >= row.max_attempts) {
      await updateOwned(row.id)
        .set({
          state: "failed",
          last_error: message,
          finished_at: iso(now),
          updated_at: iso(now),
          lease_owner: null,
          lease_expires_at: null,
        })
        .execute();
      logger.error({ job: row.name, jobId: row.id, attempts: row.attempts, err: error }, "job failed for good");
      return;
    }
    const delay = backoffMs * 2 ** (row.attempts - 1);
    await updateOwned(row.id)
      .set({
        state: "delayed",
        run_at: iso(new Date(now.getTime() + delay)),
        last_error: message,
        updated_at: iso(now),
        lease_owner: null,
        lease_expires_at: null,
      })
      .execute();
    logger.warn(
      { job: row.name, jobId: row.id, attempt: row.attempts, retryInMs: delay, err: error },
      "job failed, will retry",
    );
  }

  /** Gives a job back untouched (shutdown): its attempt does not count. */
  async function release(row: JobsTable) {
    const now = iso(clock.now());
    await updateOwned(row.id)
      .set({
        state: "waiting",
        run_at: now,
        attempts: sql<number>`attempts - 1`,
        updated_at: now,
        lease_owner: null,
        lease_expires_at: null,
      })
      .execute();
  }

  function launch(row: JobsTable) {
    const definition = definitionOf(row.name);
    const controller = new AbortController();
    const timeoutMs = definition.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const renew = setInterval(
      () => {
        void updateOwned(row.id)
          .set({ lease_expires_at: later(leaseMs) })
          .execute()
          .catch((error) => logger.warn({ err: error, jobId: row.id }, "job lease renewal failed"));
      },
      Math.max(20, Math.floor(leaseMs / 3)),
    );
    renew.unref();
    let timer: NodeJS.Timeout | undefined;
    const started = Date.now();
    const done = (async () => {
      try {
        // A runner crashed holding it on its last attempt: the crash used that attempt up.
        if (row.attempts > row.max_attempts)
          throw new PermanentJobError("the process running it stopped before it finished (lease expired)");
        let payload: unknown;
        try {
          payload = definition.payload.parse(JSON.parse(row.payload));
        } catch (error) {
          throw new PermanentJobError(`invalid payload: ${messageOf(error)}`);
        }
        const stopped = new Promise<never>((_, reject) => {
          controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
          timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
        });
        const work = Promise.resolve().then(() =>
          definition.handle(payload, { jobId: row.id, attempt: row.attempts, signal: controller.signal }),
        );
        // Whichever loses the race must not become an unhandled rejection.
        work.catch(() => {});
        stopped.catch(() => {});
        await Promise.race([work, stopped]);
        await complete(row);
        recordJob(row.name, (Date.now() - started) / 1000, "completed");
      } catch (error) {
        if (error instanceof ShutdownAbort) await release(row);
        else {
          recordJob(row.name, (Date.now() - started) / 1000, "failed");
          await fail(row, error);
        }
      }
    })()
      .catch((error) => logger.error({ err: error, jobId: row.id }, "job bookkeeping failed"))
      .finally(() => {
        clearInterval(renew);
        if (timer) clearTimeout(timer);
        running.delete(row.id);
        wake();
      });
    running.set(row.id, { controller, done });
  }

  /** One pass: fire due schedules, then fill free slots with due jobs. Returns how many jobs it launched. */
  async function tick(): Promise<number> {
    if (!schedulesSynced) await syncSchedules();
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
  }

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

    define(definition) {
      if (definitions.has(definition.name)) throw new Error(`Job "${definition.name}" is defined twice`);
      definitions.set(definition.name, definition as JobDefinition<unknown>);
      schedulesSynced = false;
    },

    async enqueue(name, input, enqueueOptions = {}) {
      const definition = definitionOf(name);
      // A bad payload is the caller's bug: refuse it here rather than fail in a worker later.
      const payload = definition.payload.parse(input);
      const key = enqueueOptions.key ?? definition.key?.(payload) ?? null;
      const now = clock.now();
      const runAt = enqueueOptions.runAt && enqueueOptions.runAt > now ? enqueueOptions.runAt : now;
      const retry = definition.retry ?? DEFAULT_RETRY;
      const values = {
        payload: JSON.stringify(payload),
        state: runAt > now ? "delayed" : "waiting",
        attempts: 0,
        max_attempts: Math.max(1, retry.attempts),
        run_at: iso(runAt),
        lease_owner: null,
        lease_expires_at: null,
        last_error: null,
        updated_at: iso(now),
        finished_at: null,
      };
      const inserted = await db
        .insertInto("jobs")
        .values({ id: newId(), name, key, created_at: iso(now), ...values })
        .onConflict((oc) => oc.columns(["name", "key"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (inserted) {
        if (runAt <= now) wake();
        return { id: inserted.id, duplicate: false };
      }
      const existing = await db
        .selectFrom("jobs")
        .select(["id", "state"])
        .where("name", "=", name)
        .where("key", "=", key as string)
        .executeTakeFirstOrThrow();
      // A failed unit of work asked for again is tried again (from scratch); anything else already happened or will.
      if (existing.state === "failed") {
        const revived = await db
          .updateTable("jobs")
          .set(values)
          .where("id", "=", existing.id)
          .where("state", "=", "failed")
          .executeTakeFirst();
        if (Number(revived.numUpdatedRows) === 1) {
          if (runAt <= now) wake();
          return { id: existing.id, duplicate: false };
        }
      }
      return { id: existing.id, duplicate: true };
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

    async list(name, state, limit = 50) {
      const rows = await db
        .selectFrom("jobs")
        .selectAll()
        .where("name", "=", name)
        .where("state", "=", state)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return rows.map(
        (row): JobRecord => ({
          id: row.id,
          name: row.name,
          key: row.key,
          state: row.state as JobState,
          attempts: row.attempts,
          error: row.last_error,
          payload: JSON.parse(row.payload),
          createdAt: row.created_at,
          finishedAt: row.finished_at,
        }),
      );
    },

    async counts() {
      const rows = await db
        .selectFrom("jobs")
        .select(["state", (eb) => eb.fn.countAll<number>().as("n")])
        .groupBy("state")
        .execute();
      const counts: Record<JobState, number> = { waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 };
      for (const row of rows) counts[row.state as JobState] = Number(row.n);
      return counts;
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
