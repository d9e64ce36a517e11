import type { Db } from "../../infra/db";

/** Probe runs are operational records, not tenant data: no company scope. */
export function opsRepo(db: Db) {
  return {
    async started(run: { id: string; jobKey: string; process: string; at: string }) {
      await db
        .insertInto("ops_probe_runs")
        .values({ id: run.id, job_key: run.jobKey, process: run.process, started_at: run.at, finished_at: null })
        .execute();
    },
    async finished(id: string, at: string) {
      await db.updateTable("ops_probe_runs").set({ finished_at: at }).where("id", "=", id).execute();
    },
    async isFinished(jobKey: string): Promise<boolean> {
      const row = await db
        .selectFrom("ops_probe_runs")
        .select("id")
        .where("job_key", "=", jobKey)
        .where("finished_at", "is not", null)
        .executeTakeFirst();
      return row !== undefined;
    },
    async runs(prefix: string) {
      return db
        .selectFrom("ops_probe_runs")
        .select(["job_key", "process", "started_at", "finished_at"])
        .where("job_key", "like", `${prefix.replace(/[%_\\]/g, "")}%`)
        .orderBy("started_at")
        .execute();
    },
  };
}
