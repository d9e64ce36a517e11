import type { z } from "zod";

/**
 * Jobs (docs/operations.md): everything slow or scheduled (PDF rendering, report sends, source syncs,
 * alert checks) runs here, never inside an HTTP request. A job is a definition that lives in the
 * feature owning it, plus an idempotent handler. Embedded: rows in the database run by an
 * in-process runner. Distributed: BullMQ on Redis, run by `ROLE=worker` processes.
 */
export interface JobDefinition<P = unknown> {
  /** Unique, dotted by feature: `reports.send`, `pdf.render`, `ops.probe`. */
  name: string;
  payload: z.ZodType<P>;
  /**
   * Idempotency key of one unit of work (e.g. report id + scheduled time). Enqueueing a key that is
   * waiting, running or done does nothing, so a retry, a crash or a second worker never repeats it.
   */
  key?: (payload: P) => string;
  /** A recurring job: every N ms or a cron pattern (in `timezone`, UTC by default). Payload is `{}`. */
  schedule?: { everyMs: number } | { cron: string; timezone?: string };
  /** Attempts in all (first run included) and the base of the exponential backoff. Default 3 × 1 s. */
  retry?: { attempts: number; backoffMs: number };
  /** Time limit of one attempt; the attempt fails with a timeout beyond it. Default 5 minutes. */
  timeoutMs?: number;
  handle(payload: P, context: JobContext): Promise<void>;
}

export interface JobContext {
  jobId: string;
  /** 1 on the first run. */
  attempt: number;
  /** Aborted when the attempt times out or the worker shuts down. */
  signal: AbortSignal;
}

export type JobState = "waiting" | "delayed" | "active" | "completed" | "failed";

export interface JobRecord {
  id: string;
  name: string;
  key: string | null;
  state: JobState;
  attempts: number;
  /** The last error's message, kept once the job has exhausted its retries. */
  error: string | null;
  payload: unknown;
  createdAt: string;
  finishedAt: string | null;
}

export interface EnqueueOptions {
  /** Overrides the definition's key function. */
  key?: string;
  /** Run no earlier than this. */
  runAt?: Date;
}

export interface JobQueue {
  /** Every process defines every job (web processes to enqueue them, workers to run them). */
  define<P>(definition: JobDefinition<P>): void;
  /** Validates the payload with the definition's schema; `duplicate` when the key already exists. */
  enqueue<P>(name: string, payload: P, options?: EnqueueOptions): Promise<{ id: string; duplicate: boolean }>;
  /** Starts running jobs and schedules (worker role). Web-only processes never call it. */
  start(): Promise<void>;
  /** Jobs of one definition in a state, newest first (a feature shows its failed jobs with their errors). */
  list(name: string, state: JobState, limit?: number): Promise<JobRecord[]>;
  /** Counts per state across every definition (metrics: queue depth). */
  counts(): Promise<Record<JobState, number>>;
  /** Stops taking jobs, lets running ones finish (or aborts them after a grace period), releases connections. */
  close(): Promise<void>;
}
