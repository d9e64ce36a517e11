import type { Logger } from "pino";
import type { Clock } from "./clock";
import type { Db } from "./db";
import type { JobDefinition } from "./jobs";

/**
 * What the parts of the embedded job queue share (db-jobs.ts assembles them): its settings, the job
 * definitions, the jobs this runner is running, and the runner's state flags. Each part — schedules
 * (db-jobs-schedules.ts), leases (db-jobs-leases.ts), running one job (db-jobs-launch.ts) and the rows
 * callers add and read (db-jobs-store.ts) — receives this one object.
 */
export interface JobRunner {
  db: Db;
  clock: Clock;
  logger: Logger;
  concurrency: number;
  leaseMs: number;
  owner: string;
  // biome-ignore lint/suspicious/noExplicitAny: definitions of every payload type share one map
  definitions: Map<string, JobDefinition<any>>;
  running: Map<string, { controller: AbortController; done: Promise<void> }>;
  /** Set once the schedule rows match the definitions; a new definition clears it. */
  schedulesSynced: boolean;
  definitionOf(name: string): JobDefinition;
  /** Runs a pass now (or right after the current one), without overlapping passes. */
  wake(): void;
}

export type Schedule = NonNullable<JobDefinition["schedule"]>;

export const DEFAULT_RETRY = { attempts: 3, backoffMs: 1000 };
export const DEFAULT_TIMEOUT_MS = 5 * 60_000;

export const iso = (date: Date) => date.toISOString();

/** Thrown into a job's signal and race when the runner shuts down: the job goes back to the queue. */
export class ShutdownAbort extends Error {
  constructor() {
    super("the job runner is shutting down");
  }
}

/** A failure that retrying cannot fix (a payload that no longer matches its schema). */
export class PermanentJobError extends Error {}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
