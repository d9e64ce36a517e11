import { useSyncExternalStore } from "react";

/** Where the realtime connection stands, for the realtime view's indicator. */
export interface RealtimeStatus {
  /** off: not started (public viewer); live: subscribed; connecting: (re)connecting; offline: refused or gone. */
  state: "off" | "connecting" | "live" | "offline";
  /** When the last event arrived (ms since epoch), or null. */
  lastEventAt: number | null;
}

let status: RealtimeStatus = { state: "off", lastEventAt: null };
const listeners = new Set<() => void>();

export function setRealtimeStatus(patch: Partial<RealtimeStatus>): void {
  status = { ...status, ...patch };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(
    subscribe,
    () => status,
    () => status,
  );
}
