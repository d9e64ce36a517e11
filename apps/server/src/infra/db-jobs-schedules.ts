import { CronExpressionParser } from "cron-parser";
import { DEFAULT_RETRY, iso, type JobRunner, type Schedule } from "./db-jobs-runner";
import { newId } from "./security";

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

/** The schedules of the embedded job queue: their rows, and the one job each due time turns into. */
export function scheduleSteps(runner: JobRunner) {
  const { db, clock, definitions, definitionOf } = runner;

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
    runner.schedulesSynced = true;
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

  return { syncSchedules, fireSchedules };
}
