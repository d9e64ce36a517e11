import type { TWidget } from "@app/core";
import { LRUCache } from "lru-cache";
import type { DashboardsTable } from "../../infra/db/schema";
import { parseWidgets } from "./presenter";

/**
 * A shared dashboard's page asks for each widget's data separately, and each request reads the row (access
 * is checked every time) but its widget list only changes when the dashboard is saved: the list is parsed
 * once per saved text and kept frozen, so no reader can change what the next one gets.
 */
export function parsedWidgetCache() {
  const parsedWidgets = new LRUCache<string, { text: string; widgets: readonly TWidget[] }>({
    maxSize: 32 * 1024 * 1024,
    sizeCalculation: (entry) => Math.max(1, entry.text.length * 2),
  });
  return function widgetsOf(row: Pick<DashboardsTable, "id" | "widgets">): readonly TWidget[] {
    const kept = parsedWidgets.get(row.id);
    if (kept !== undefined && kept.text === row.widgets) return kept.widgets;
    const widgets = deepFreeze(parseWidgets(row));
    parsedWidgets.set(row.id, { text: row.widgets, widgets });
    return widgets;
  };
}

/** Freezes a parsed JSON value all the way down (it holds only plain objects, lists and primitives). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
