import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { AppContext } from "../../context";
import type { JobDefinition } from "../../infra/jobs";
import { newId } from "../../infra/security";
import { opsRepo } from "./repo";

export const ZProbePayload = z.strictObject({
  key: z.string().regex(/^[A-Za-z0-9._:-]{1,100}$/),
  sleepMs: z.number().int().min(0).max(60_000),
});
export type TProbePayload = z.infer<typeof ZProbePayload>;

/** Which process ran a probe: the host and pid, so a run can be traced to a worker (and killed in the proof). */
export const PROCESS_NAME = `${os.hostname()}:${process.pid}`;

/**
 * The operator's probe (docs/operations.md): a job that records where and when it ran and sleeps,
 * so one can check end to end that web processes enqueue and workers run each job once, including
 * after a worker dies mid-job. Its key is its own: enqueueing the same key twice runs it once.
 */
export function opsService(ctx: AppContext) {
  const repo = opsRepo(ctx.db);
  const probe: JobDefinition<TProbePayload> = {
    name: "ops.probe",
    payload: ZProbePayload,
    key: (payload) => `ops.probe:${payload.key}`,
    retry: { attempts: 3, backoffMs: 200 },
    timeoutMs: 70_000,
    async handle(payload, job) {
      const id = newId();
      await repo.started({ id, jobKey: payload.key, process: PROCESS_NAME, at: ctx.clock.now().toISOString() });
      await sleep(payload.sleepMs, undefined, { signal: job.signal });
      await repo.finished(id, ctx.clock.now().toISOString());
    },
  };
  ctx.jobs.define(probe);
  return {
    async enqueueProbes(input: { prefix: string; count: number; sleepMs: number }) {
      const results = [];
      for (let index = 0; index < input.count; index += 1) {
        const key = `${input.prefix}${index}`;
        results.push({ key, ...(await ctx.jobs.enqueue(probe.name, { key, sleepMs: input.sleepMs })) });
      }
      return results;
    },
    /** Per key: how many times the handler started and finished, and on which processes. */
    async probeRuns(prefix: string) {
      const rows = await repo.runs(prefix);
      const byKey = new Map<string, { key: string; starts: number; finishes: number; processes: string[] }>();
      for (const row of rows) {
        const entry = byKey.get(row.job_key) ?? { key: row.job_key, starts: 0, finishes: 0, processes: [] };
        entry.starts += 1;
        if (row.finished_at) entry.finishes += 1;
        entry.processes.push(row.process);
        byKey.set(row.job_key, entry);
      }
      return [...byKey.values()];
    },
  };
}
export type OpsService = ReturnType<typeof opsService>;
