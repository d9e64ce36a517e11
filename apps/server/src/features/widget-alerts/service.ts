import type { AppContext } from "../../context";
import type { WidgetAlertsDeps } from "./deps";
import { evaluationUseCases } from "./evaluation";
import { goalRemovalUseCases } from "./goal-removal";
import { openAlertUseCases } from "./open-alerts";
import { widgetAlertsRepo } from "./repo";
import { ruleUseCases } from "./rules";

export type { WidgetAlertsDeps } from "./deps";
export type { EvaluationSummary } from "./evaluation";
export { ANOMALY_HISTORY_WEEKS } from "./observations";
export type { DigestWidgetAlert } from "./open-alerts";
export { metricLabelOf } from "./presenter";

/**
 * Alerts on any widget metric (docs/decisions.md, "Widget alerts on the dashboard"): rules on a widget's metric
 * (rules.ts), evaluated by a job through the same data path as the dashboard (evaluation.ts,
 * observations.ts), shown on the dashboard's cards and in the Mission Control digest (open-alerts.ts).
 */
export function widgetAlertsService(ctx: AppContext, deps: WidgetAlertsDeps) {
  const repo = widgetAlertsRepo(ctx.db);
  return {
    ...evaluationUseCases(ctx, deps, repo),
    ...openAlertUseCases(ctx, deps, repo),
    ...ruleUseCases(ctx, deps, repo),
    ...goalRemovalUseCases(),
  };
}

export type WidgetAlertsService = ReturnType<typeof widgetAlertsService>;
