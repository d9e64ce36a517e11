import os from "node:os";
import { z } from "zod";
import type { AppContext } from "../../context";
import type { JobDefinition } from "../../infra/jobs";
import { newId } from "../../infra/security";
import { opsRepo } from "./repo";

export const ZProbePayload = z.strictObject({
  /** Chosen by whoever checks the queue; also the idempotency key, so one probe runs once. */
  key: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
  /** How long the probe holds its worker (0 to 60 s): long enough to kill a worker mid-job when proving recovery. */
  sleepMs: z.number().int().min(0).max(60_000).default(0),
});
export type TProbePayload = z.infer<typeof ZProbePayload>;

/** Which process ran a probe: host and pid, so a run can be traced to a worker. */
export const PROCESS_NAME = `${os.hostname()}:${process.pid}`;

/**
 * `ops.probe` (docs/operations.md): an end-to-end check that web processes enqueue and workers run each
 * job once, including after a worker dies mid-job. It records each execution (process, start, finish)
 * in `ops_probe_runs` and logs it, so an operator or the multi-process proof sees which worker ran it
 * and whether any ran twice.
 */
export function probeJob(ctx: Pick<AppContext, "db" | "logger" | "clock">): JobDefinition<TProbePayload> {
  const repo = opsRepo(ctx.db);
  return {
    name: "ops.probe",
    payload: ZProbePayload,
    key: (payload) => payload.key,
    retry: { attempts: 3, backoffMs: 500 },
    timeoutMs: 90_000,
    async handle(payload, { jobId, attempt, signal }) {
      const facts = { job: "ops.probe", key: payload.key, jobId, attempt, pid: process.pid };
      // Idempotent by key, as every handler must be: a queue runs a job at least once, so a job whose
      // worker died after the work but before the queue heard of it comes back, and must do nothing.
      if (await repo.isFinished(payload.key)) {
        ctx.logger.info(facts, "ops.probe already done");
        return;
      }
      ctx.logger.info(facts, "ops.probe started");
      const id = newId();
      await repo.started({ id, jobKey: payload.key, process: PROCESS_NAME, at: ctx.clock.now().toISOString() });
      if (payload.sleepMs > 0) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, payload.sleepMs);
          signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(signal.reason);
          });
        });
      }
      await repo.finished(id, ctx.clock.now().toISOString());
      ctx.logger.info(facts, "ops.probe finished");
    },
  };
}
