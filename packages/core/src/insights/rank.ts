import type { Insight, InsightOptions, InsightWidget } from "./widget";
import { widgetInsights } from "./widget";

/** How many movements a dashboard summary shows at most (the three to five that matter). */
export const DEFAULT_SUMMARY_SIZE = 5;

/** Two statements are about the same metric when a reader would take them so: same name, same currency. */
export function insightMetricIdentity(insight: Pick<Insight, "metricLabel" | "currency">): string {
  return `${insight.metricLabel.trim().toLowerCase()}|${insight.currency ?? ""}`;
}

const explained = (insight: Insight) => insight.contribution?.explainedShare ?? 0;
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// The fixed last resort of every ordering, so equal scores still come out the same every time.
function byPosition(a: Insight, b: Insight): number {
  return (
    a.order - b.order ||
    a.metricIndex - b.metricIndex ||
    byText(a.widgetId, b.widgetId) ||
    byText(a.sentence, b.sentence)
  );
}

/**
 * The movements worth a dashboard's summary, most important first. One statement per metric: of the
 * widgets that speak of it, the one whose named dimension values explain the largest share of its
 * change (then the most unusual, then the first on the dashboard). Metrics are ranked by how unusual
 * their change is, the highest any of their widgets measured (a widget without history may judge the
 * same change on the fixed threshold), then by that explained share, then by position.
 */
export function rankInsights(insights: readonly Insight[], limit = DEFAULT_SUMMARY_SIZE): Insight[] {
  const groups = new Map<string, Insight[]>();
  for (const insight of insights) {
    const identity = insightMetricIdentity(insight);
    groups.set(identity, [...(groups.get(identity) ?? []), insight]);
  }
  const chosen = [...groups.values()].map((group) => {
    const [best] = [...group].sort(
      (a, b) => explained(b) - explained(a) || b.unusualness - a.unusualness || byPosition(a, b),
    );
    return { best, unusualness: Math.max(...group.map((insight) => insight.unusualness)) };
  });
  chosen.sort(
    (a, b) => b.unusualness - a.unusualness || explained(b.best) - explained(a.best) || byPosition(a.best, b.best),
  );
  return chosen.slice(0, Math.max(0, limit)).map((entry) => entry.best);
}

/** The dashboard summary: every widget's insights, ranked, at most `limit`. */
export function dashboardInsights(
  widgets: readonly InsightWidget[],
  options: InsightOptions & { limit?: number } = {},
): Insight[] {
  return rankInsights(
    widgets.flatMap((widget) => widgetInsights(widget, options)),
    options.limit,
  );
}
