import {
  type DayRange,
  DIMENSION_PARAM,
  goalSeriesRange,
  goalTotalRange,
  normaliseTimeZone,
  type TTable,
  type TWidgetDataRequest,
  type TWidgetGoalResult,
  todayInTimezone,
  widgetGoalResult,
} from "@app/core";
import { lagDaysOf, widgetType } from "../../connectors";
import type { WidgetData } from "./widget-data";

type Instances = TWidgetDataRequest["instances"];

/**
 * The value of the instances' dimension that groups their query by day (the connectors'
 * `insightDimensions` table, as insights' history asks it); null when a type has none or the instances
 * disagree (their rows would not pair by day).
 */
function dateDimension(instances: Instances): string | null {
  const values = instances.map(
    (instance) => widgetType(instance.type)?.connector.insightDimensions?.[instance.type]?.date ?? null,
  );
  const [first] = values;
  return first && values.every((value) => value === first) ? first : null;
}

/**
 * The widget-data answer's goals (docs/decisions.md, "Goals: periods, pace and lagging days"): each
 * goal's metric by day over its period and the weeks before (one query per distinct window, through
 * `data`, the same path and caches as the widget's own query, so a settled window is asked once), the
 * widget's own query over the goal's days so far when they are not the days it shows (its total is the
 * value), then core's rules. A goal whose daily query fails still answers, from the widget's total, without a pace.
 */
export async function goalsOf(
  request: TWidgetDataRequest,
  answer: WidgetData,
  now: Date,
  data: (request: TWidgetDataRequest) => Promise<WidgetData>,
): Promise<TWidgetGoalResult[]> {
  const goals = request.goals ?? [];
  const today = todayInTimezone(normaliseTimeZone(request.timezone) ?? "UTC", now);
  const range: DayRange = { startDate: request.startDate, endDate: request.endDate };
  const dimension = dateDimension(request.instances);
  // One memo for the goals' extra queries (their days by date, the widget's total over a goal's days):
  // goals sharing a window share its query.
  const asked = new Map<string, Promise<TTable | null>>();
  const currentOver = (
    kind: "daily" | "total",
    instances: Instances,
    window: DayRange,
    keep: (current: TTable) => TTable | null,
  ): Promise<TTable | null> => {
    const key = `${kind}|${window.startDate}|${window.endDate}`;
    let found = asked.get(key);
    if (!found) {
      found = data({
        ...request,
        instances,
        ...window,
        comparison: false,
        compareStartDate: null,
        compareEndDate: null,
        goals: undefined,
      }).then(
        (answer) => keep(answer.current),
        // No numbers for now (a provider failing, an instance without a day dimension): no pace from
        // the days, or the days added up instead of the provider's total.
        () => null,
      );
      asked.set(key, found);
    }
    return found;
  };
  const byDay =
    dimension === null
      ? null
      : request.instances.map((instance) => ({
          ...instance,
          inputs: { ...instance.inputs, [DIMENSION_PARAM]: dimension },
        }));
  const dailyOf = (window: DayRange): Promise<TTable | null> =>
    byDay === null || window.endDate < window.startDate
      ? Promise.resolve(null)
      : currentOver("daily", byDay, window, (current) => (current.dimension?.kind === "date" ? current : null));
  // The widget's own query over a goal's days so far, when those are not the days it shows: the
  // provider's total for them (users over a month are not the days' users added up).
  const totalsOf = (window: DayRange | null): Promise<TTable | null> =>
    window === null ? Promise.resolve(null) : currentOver("total", request.instances, window, (current) => current);
  const lagDays = lagDaysOf(request.instances);
  const results = await Promise.all(
    goals.map(async (goal) =>
      widgetGoalResult({
        goal,
        instances: request.instances,
        range,
        current: answer.current,
        previous: answer.previous,
        daily: await dailyOf(goalSeriesRange(goal.period, range, today)),
        periodTotals: await totalsOf(goalTotalRange(goal.period, range, today)),
        today,
        lagDays,
      }),
    ),
  );
  return results.filter((result): result is TWidgetGoalResult => result !== null);
}
