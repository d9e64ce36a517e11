import type { AppContext } from "../../context";
import type { SubscriptionDiscounts } from "../billing/discounts";
import { opsRepo } from "./repo";

/**
 * The operator's job-pipeline check (enqueue probes, read back where and how often each ran), and the
 * re-sync of card subscriptions' prices at Stripe, which billing owns.
 */
export function opsService(ctx: AppContext, discounts: () => SubscriptionDiscounts) {
  const repo = opsRepo(ctx.db);
  return {
    async enqueueProbes(input: { prefix: string; count: number; sleepMs: number }) {
      const results = [];
      for (let index = 0; index < input.count; index += 1) {
        const key = `${input.prefix}${index}`;
        results.push({ key, ...(await ctx.jobs.enqueue("ops.probe", { key, sleepMs: input.sleepMs })) });
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
    resyncDiscounts: (companyId?: string) => discounts().resync(companyId),
  };
}
export type OpsService = ReturnType<typeof opsService>;
