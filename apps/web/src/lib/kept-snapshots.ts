/**
 * The Cache Storage caches a member's chart snapshots are kept in (features/widgets/charts/snapshot-store.ts),
 * named by this prefix and the release; here so that signing out (features/auth/api.ts) can delete them
 * without reaching into the charts' code.
 */
export const SNAPSHOT_CACHE_PREFIX = "chart-snapshots:";

/** Deletes every kept snapshot of this browser (signing out). */
export async function forgetSnapshots(): Promise<void> {
  if (typeof caches === "undefined") return;
  try {
    const names = await caches.keys();
    await Promise.all(
      names.filter((name) => name.startsWith(SNAPSHOT_CACHE_PREFIX)).map((name) => caches.delete(name)),
    );
  } catch {
    // Nothing kept, or storage unavailable.
  }
}
