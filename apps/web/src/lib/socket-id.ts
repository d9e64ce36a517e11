/**
 * The id of this page's realtime socket while it is connected (docs/product.md §7: API calls carry it), so the
 * server leaves this page out of the broadcast its own change causes. Kept apart from the realtime
 * client so the API module never pulls Socket.IO into a first load.
 */
let current: string | null = null;

export function realtimeSocketId(): string | null {
  return current;
}

export function setRealtimeSocketId(id: string | null): void {
  current = id;
}
