import { sql } from "kysely";
import type { JobsTable } from "./db/schema";
import { DEFAULT_RETRY, iso, type JobRunner, messageOf, PermanentJobError } from "./db-jobs-runner";

/**
 * The leases of the embedded job queue: taking a due job for this runner, and handing it back completed,
 * failed (to retry later or for good) or untouched. Every write is conditional on the row still being
 * this runner's, so two runners never both hold a job.
 */
export function leaseSteps(runner: JobRunner) {
  const { db, clock, logger, definitions, running, concurrency, leaseMs, owner } = runner;
  const later = (ms: number) => iso(new Date(clock.now().getTime() + ms));

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

  return { claimOne, updateOwned, complete, fail, release, later };
}
