import { z } from "zod";
import type { AppContext } from "../../context";
import type { JobDefinition } from "../../infra/jobs";

const ZProbe = z.object({
  /** Chosen by whoever checks the queue; also the idempotency key, so one probe runs once. */
  token: z.string().min(1).max(100),
  /** How long the probe holds its worker (0 to 60 s): long enough to kill a worker mid-job when proving recovery. */
  holdMs: z.number().int().min(0).max(60_000).default(0),
});

/**
 * `ops.probe`: an end-to-end check that workers take jobs. It logs when it starts and finishes
 * (with the process id), so an operator or the multi-process proof can see which worker ran it
 * and that none ran it twice; its row in the jobs table tells the attempts.
 */
export function probeJob(ctx: AppContext): JobDefinition<z.infer<typeof ZProbe>> {
  return {
    name: "ops.probe",
    payload: ZProbe,
    key: (payload) => payload.token,
    retry: { attempts: 3, backoffMs: 500 },
    timeoutMs: 90_000,
    async handle(payload, { jobId, attempt, signal }) {
      ctx.logger.info(
        { job: "ops.probe", token: payload.token, jobId, attempt, pid: process.pid },
        "ops.probe started",
      );
      if (payload.holdMs > 0) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, payload.holdMs);
          signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(signal.reason);
          });
        });
      }
      ctx.logger.info(
        { job: "ops.probe", token: payload.token, jobId, attempt, pid: process.pid },
        "ops.probe finished",
      );
    },
  };
}
