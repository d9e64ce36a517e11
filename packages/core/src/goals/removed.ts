import type { TWidget } from "../contract/dashboards";

/** A widget's metric that had a goal and has none now. */
export interface RemovedGoalMetric {
  widgetId: string;
  metric: string;
}

function goalMetrics(widget: TWidget): Set<string> {
  return new Set(widget.nature === "interactive" ? (widget.goals ?? []).map((goal) => goal.metric) : []);
}

/**
 * The metrics whose last goal a save takes away, per widget kept by the save: an off-pace alert rule on
 * such a metric has no verdict left to judge (docs/decisions.md, "An off-pace alert goes with its goal").
 * A widget removed altogether is not listed: its rules say so themselves ("The widget was removed").
 */
export function removedGoalMetrics(before: readonly TWidget[], after: readonly TWidget[]): RemovedGoalMetric[] {
  const kept = new Map(after.map((widget) => [widget.id, widget]));
  const removed: RemovedGoalMetric[] = [];
  for (const widget of before) {
    const now = kept.get(widget.id);
    if (!now) continue;
    const still = goalMetrics(now);
    for (const metric of goalMetrics(widget)) if (!still.has(metric)) removed.push({ widgetId: widget.id, metric });
  }
  return removed;
}
