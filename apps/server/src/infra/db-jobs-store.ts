import type { DatabaseJobQueue } from "./db-jobs";
import { DEFAULT_RETRY, iso, type JobRunner } from "./db-jobs-runner";
import type { JobRecord, JobState } from "./jobs";
import { newId } from "./security";

/** The job rows callers add and read: enqueue (once per key), the list of one state, the counts. */
export function storeSteps(runner: JobRunner): Pick<DatabaseJobQueue, "enqueue" | "list" | "counts"> {
  const { db, clock, definitionOf, wake } = runner;
  return {
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
  };
}
