import { type Job, Queue, Worker } from "bullmq";
import type { Logger } from "pino";
import type { EnqueueOptions, JobContext, JobDefinition, JobQueue, JobRecord, JobState } from "../jobs";
import { recordJob } from "../metrics";

export interface BullJobQueueOptions {
  redisUrl: string;
  logger: Logger;
  /** Queue name (and Redis key prefix part); tests use their own. */
  queueName?: string;
  /** Jobs one worker process runs at a time. */
  concurrency?: number;
  /**
   * How long a worker's lock on a running job lasts (renewed at half of it). A worker killed mid-job
   * stops renewing; after this the stalled check of another worker puts the job back in the queue.
   * BullMQ's default is 30 s; 10 s gets a killed worker's job finished by another within ~20 s while
   * a busy event loop (renewing at half of it) never loses a lock it still holds.
   */
  lockDurationMs?: number;
  /** How long `close()` lets running jobs finish before it aborts them. */
  closeGraceMs?: number;
}

const DEFAULT_RETRY = { attempts: 3, backoffMs: 1000 };
const DEFAULT_TIMEOUT_MS = 5 * 60_000;
/** Finished jobs are kept this long: their ids are the idempotency keys, so a key is refused for a week. */
const KEEP_COMPLETED_S = 7 * 24 * 3600;

/**
 * The distributed job queue: BullMQ on Redis. Every process defines every job; web processes only
 * enqueue; `start()` (worker role) creates the Worker. The idempotency key is BullMQ's job id, so a
 * key that is waiting, running or done is not added again. BullMQ runs a job at least once: a job whose
 * worker died is run again by another worker, so handlers are idempotent by their key (the jobs'
 * own rule, see infra/jobs.ts).
 */
export function createBullJobQueue(options: BullJobQueueOptions): JobQueue {
  const queueName = options.queueName ?? "reportz-jobs";
  const definitions = new Map<string, JobDefinition<unknown>>();
  const connection = { url: options.redisUrl, maxRetriesPerRequest: null };
  const queue = new Queue(queueName, { connection });
  queue.on("error", (error) => options.logger.error({ err: error }, "job queue connection error"));
  let worker: Worker | null = null;
  const running = new Set<AbortController>();

  const run = async (job: Job): Promise<void> => {
    const definition = definitions.get(job.name);
    if (!definition) throw new Error(`No job definition named ${job.name} in this process`);
    const payload = definition.payload.parse(job.data);
    const controller = new AbortController();
    running.add(controller);
    const timeoutMs = definition.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = setTimeout(
      () => controller.abort(new Error(`Job ${job.name} timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    const context: JobContext = { jobId: String(job.id), attempt: job.attemptsMade + 1, signal: controller.signal };
    const started = Date.now();
    try {
      // Listening before the handler runs: a handler that honours the signal by returning must not
      // win the race and turn a timed-out attempt into a completed one.
      const stopped = new Promise<never>((_resolve, reject) => {
        controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
      });
      const work = Promise.resolve().then(() => definition.handle(payload, context));
      // Whichever loses the race must not become an unhandled rejection.
      work.catch(() => {});
      stopped.catch(() => {});
      await Promise.race([work, stopped]);
      controller.signal.throwIfAborted();
      recordJob(job.name, (Date.now() - started) / 1000, "completed");
    } catch (error) {
      recordJob(job.name, (Date.now() - started) / 1000, "failed");
      throw error;
    } finally {
      clearTimeout(timer);
      running.delete(controller);
    }
  };

  return {
    define(definition) {
      definitions.set(definition.name, definition as JobDefinition<unknown>);
    },
    async enqueue(name, payload, enqueueOptions: EnqueueOptions = {}) {
      const definition = definitions.get(name);
      if (!definition) throw new Error(`Unknown job ${name}`);
      const data = definition.payload.parse(payload);
      const key = enqueueOptions.key ?? definition.key?.(data as never) ?? null;
      // BullMQ job ids may not contain ':' (it separates key parts); keys keep their meaning with '_'.
      const jobId = key ? `k-${key.replaceAll(":", "_")}` : undefined;
      if (jobId && (await queue.getJob(jobId))) return { id: jobId, duplicate: true };
      const retry = definition.retry ?? DEFAULT_RETRY;
      const delay = enqueueOptions.runAt ? Math.max(0, enqueueOptions.runAt.getTime() - Date.now()) : 0;
      const job = await queue.add(name, data, {
        jobId,
        delay,
        attempts: retry.attempts,
        backoff: { type: "exponential", delay: retry.backoffMs },
        removeOnComplete: { age: KEEP_COMPLETED_S },
        removeOnFail: false,
      });
      return { id: String(job.id), duplicate: false };
    },
    async start() {
      if (worker) return;
      for (const definition of definitions.values()) {
        if (!definition.schedule) continue;
        const repeat =
          "everyMs" in definition.schedule
            ? { every: definition.schedule.everyMs }
            : { pattern: definition.schedule.cron, tz: definition.schedule.timezone ?? "UTC" };
        const retry = definition.retry ?? DEFAULT_RETRY;
        // Upsert by name: every worker registering the same schedule leaves one scheduler.
        await queue.upsertJobScheduler(definition.name, repeat, {
          name: definition.name,
          data: {},
          opts: {
            attempts: retry.attempts,
            backoff: { type: "exponential", delay: retry.backoffMs },
            removeOnComplete: { age: KEEP_COMPLETED_S },
            removeOnFail: false,
          },
        });
      }
      const lockDuration = options.lockDurationMs ?? 10_000;
      worker = new Worker(queueName, run, {
        connection,
        concurrency: options.concurrency ?? 4,
        lockDuration,
        stalledInterval: lockDuration,
      });
      worker.on("error", (error) => options.logger.error({ err: error }, "job worker error"));
      worker.on("failed", (job, error) => {
        if (job && job.attemptsMade >= (job.opts.attempts ?? 1))
          options.logger.error({ err: error, job: job.name, jobId: job.id }, "job failed for good");
      });
      await worker.waitUntilReady();
    },
    async list(name, state, limit = 50) {
      const jobs = await queue.getJobs([state === "waiting" ? "wait" : state], 0, Math.max(limit * 4, 200), false);
      return jobs
        .filter((job): job is Job => Boolean(job) && job.name === name)
        .slice(0, limit)
        .map((job) => toRecord(job, state));
    },
    async counts() {
      const counts = await queue.getJobCounts("wait", "delayed", "active", "completed", "failed", "prioritized");
      return {
        waiting: (counts.wait ?? 0) + (counts.prioritized ?? 0),
        delayed: counts.delayed ?? 0,
        active: counts.active ?? 0,
        completed: counts.completed ?? 0,
        failed: counts.failed ?? 0,
      };
    },
    async close() {
      if (worker) {
        const current = worker;
        worker = null;
        const graceful = current.close();
        let graceTimer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([
          graceful.then(() => false),
          new Promise<boolean>((resolve) => {
            graceTimer = setTimeout(() => resolve(true), options.closeGraceMs ?? 10_000);
          }),
        ]);
        // A pending grace timer would keep a process that has closed everything alive for its full length.
        clearTimeout(graceTimer);
        if (timedOut) {
          for (const controller of running) controller.abort(new Error("Worker shutting down"));
          await current.close(true);
        }
      }
      await queue.close();
    },
  };
}

function toRecord(job: Job, state: JobState): JobRecord {
  return {
    id: String(job.id),
    name: job.name,
    key: job.id?.startsWith("k-") ? job.id.slice(2) : null,
    state,
    attempts: job.attemptsMade,
    error: job.failedReason || null,
    payload: job.data,
    createdAt: new Date(job.timestamp).toISOString(),
    finishedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
  };
}
