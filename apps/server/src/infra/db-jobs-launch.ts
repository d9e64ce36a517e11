import type { JobsTable } from "./db/schema";
import type { leaseSteps } from "./db-jobs-leases";
import { DEFAULT_TIMEOUT_MS, type JobRunner, messageOf, PermanentJobError, ShutdownAbort } from "./db-jobs-runner";
import { recordJob } from "./metrics";

/**
 * Runs one claimed job: renews its lease while it runs, races it against its time limit and the runner's
 * shutdown, and settles its row (completed, failed or released) before freeing its slot.
 */
export function launchStep(runner: JobRunner, leases: ReturnType<typeof leaseSteps>) {
  const { logger, running, leaseMs, definitionOf, wake } = runner;
  const { updateOwned, complete, fail, release, later } = leases;

  function launch(row: JobsTable) {
    const definition = definitionOf(row.name);
    const controller = new AbortController();
    const timeoutMs = definition.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const renew = setInterval(
      () => {
        void updateOwned(row.id)
          .set({ lease_expires_at: later(leaseMs) })
          .execute()
          .catch((error) => logger.warn({ err: error, jobId: row.id }, "job lease renewal failed"));
      },
      Math.max(20, Math.floor(leaseMs / 3)),
    );
    renew.unref();
    let timer: NodeJS.Timeout | undefined;
    const started = Date.now();
    const done = (async () => {
      try {
        // A runner crashed holding it on its last attempt: the crash used that attempt up.
        if (row.attempts > row.max_attempts)
          throw new PermanentJobError("the process running it stopped before it finished (lease expired)");
        let payload: unknown;
        try {
          payload = definition.payload.parse(JSON.parse(row.payload));
        } catch (error) {
          throw new PermanentJobError(`invalid payload: ${messageOf(error)}`);
        }
        const stopped = new Promise<never>((_, reject) => {
          controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
          timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
        });
        const work = Promise.resolve().then(() =>
          definition.handle(payload, { jobId: row.id, attempt: row.attempts, signal: controller.signal }),
        );
        // Whichever loses the race must not become an unhandled rejection.
        work.catch(() => {});
        stopped.catch(() => {});
        await Promise.race([work, stopped]);
        await complete(row);
        recordJob(row.name, (Date.now() - started) / 1000, "completed");
      } catch (error) {
        if (error instanceof ShutdownAbort) await release(row);
        else {
          recordJob(row.name, (Date.now() - started) / 1000, "failed");
          await fail(row, error);
        }
      }
    })()
      .catch((error) => logger.error({ err: error, jobId: row.id }, "job bookkeeping failed"))
      .finally(() => {
        clearInterval(renew);
        if (timer) clearTimeout(timer);
        running.delete(row.id);
        wake();
      });
    running.set(row.id, { controller, done });
  }

  return launch;
}
