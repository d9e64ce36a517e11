import {
  describeWidgetAlertRule,
  type RemovedGoalMetric,
  removedWithGoalNotice,
  type TWidget,
  widgetAlertMetrics,
} from "@app/core";
import type { Db } from "../../infra/db";
import { metricLabelOf } from "./presenter";
import { widgetAlertsRepo } from "./repo";

/** What a dashboard save asks of widget alerts when it takes goals away. */
export function goalRemovalUseCases() {
  return {
    /**
     * A dashboard save took the last goal off these metrics: their off-pace rules go too, in the save's
     * own transaction (`db`), so no rule is left saying "no goal verdict yet" (docs/decisions.md, "An
     * off-pace alert goes with its goal"). Answers what the save tells its user, one sentence a rule.
     */
    async removeWithGoals(
      db: Db,
      companyId: string,
      dashboardId: string,
      widgets: readonly TWidget[],
      metrics: readonly RemovedGoalMetric[],
    ): Promise<string[]> {
      const rules = widgetAlertsRepo(db);
      const rows = await rules.offPaceOn(companyId, dashboardId, metrics);
      await rules.deleteMany(
        companyId,
        rows.map((row) => row.id),
      );
      return rows.map((row) => {
        const widget = widgets.find((each) => each.id === row.widget_id);
        const metric = widget ? widgetAlertMetrics(widget).find((each) => each.key === row.metric) : undefined;
        // The name its mails and last check used ("Sessions goal (November) is off pace: …", from the widget's data),
        // else the connector's option label: a provider listing its metrics live (GA4) has none to hand.
        const said = row.last_message?.match(
          /^(.+?) goal (?:\([^)]*\) )?(?:is off pace|is on track|has no verdict yet)/,
        )?.[1];
        const label = said ?? (widget && metric ? metricLabelOf(widget, metric) : row.metric);
        const rule = describeWidgetAlertRule({ condition: "offPace", value: null, direction: "either" }, label);
        return removedWithGoalNotice(rule);
      });
    },
  };
}
