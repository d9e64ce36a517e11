import { useSyncExternalStore } from "react";

/**
 * The shown dashboard's insights lines by widget id. The dashboard's one insights request fills it and
 * each widget card reads its own line, so a card needs no new props (one dashboard is shown at a time;
 * widget ids are unique, so a line never lands on another dashboard's widget).
 */
let lines: Readonly<Record<string, string | null>> = {};
const listeners = new Set<() => void>();

export function setInsightLines(next: Readonly<Record<string, string | null>>): void {
  lines = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The insights line of a widget, or null when there is nothing to say (or not yet). */
export function useInsightLine(widgetId: string): string | null {
  const read = () => lines[widgetId] ?? null;
  // The same on the server: its render (and the browser's hydration of it) has no lines yet.
  return useSyncExternalStore(subscribe, read, read);
}
