import type { DashboardsTable } from "../../infra/db/schema";
import { AppError } from "../../infra/errors";
import type { Actor } from "../users/service";
import type { DashboardDeps } from "./deps";

/** A lock without a heartbeat for this long is stale: its holder closed the tab or lost the network. */
export const LOCK_TIMEOUT_MS = 90_000;

/** Who holds the dashboard's edit lock now, or null when nobody does or the lock is stale. */
export const lockHolder = (row: DashboardsTable): string | null =>
  row.locked_by && row.locked_at && Date.now() - Date.parse(row.locked_at) < LOCK_TIMEOUT_MS ? row.locked_by : null;

/** The moment before which a lock is stale, for the repo's conditional writes. */
export const staleLockBefore = (now = new Date()) => new Date(now.getTime() - LOCK_TIMEOUT_MS).toISOString();

/** Edit lock (docs/product.md §4): one member edits a dashboard at a time. */
export function editLockUseCases({ repo, load }: DashboardDeps) {
  return {
    /** Take or refresh the lock, or release it. Refusal names the holder. */
    async lock(actor: Actor, id: string, action: "lock" | "unlock"): Promise<string | null> {
      await load(actor, id);
      if (action === "unlock") {
        await repo.unlock(actor.companyId, id, actor.id);
        return null;
      }
      const now = new Date();
      if (!(await repo.tryLock(actor.companyId, id, actor.id, now.toISOString(), staleLockBefore(now)))) {
        throw new AppError(
          "conflict",
          "Another user is editing this dashboard. Edit mode is available when they finish.",
        );
      }
      return actor.id;
    },
  };
}
