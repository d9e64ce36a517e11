import type { AppContext } from "../context";
import { probeJob } from "./health/jobs";

/**
 * Defines every feature's jobs on the context's queue. Every process calls it (web processes to
 * enqueue, workers to run), whether or not it serves HTTP, so it does not live in `buildApp`.
 */
export function defineJobs(ctx: AppContext): void {
  ctx.jobs.define(probeJob(ctx));
}
