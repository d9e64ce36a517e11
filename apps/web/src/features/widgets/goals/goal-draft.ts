import {
  type GoalPeriod,
  type TTableMetric,
  type TWidgetGoal,
  type TWidgetInstance,
  WIDGET_GOAL_MESSAGES,
  widgetGoalIssues,
  ZWidgetGoal,
} from "@app/core";

/** One goal as the form edits it: the target stays empty until typed. */
export interface GoalDraft {
  /** The row's own key (React), never saved. */
  key: string;
  metric: string | null;
  target: number | null;
  period: GoalPeriod;
}

/** A goal's fields that can be wrong, each with the contract's message (the server's 422 says the same). */
export type GoalErrors = Partial<Record<"metric" | "target" | "period", string>>;

/** What a goal's target is for, in the words an owner uses. */
export const PERIOD_OPTIONS: { value: GoalPeriod; label: string }[] = [
  { value: "month", label: "Each month" },
  { value: "week", label: "Each week (Monday to Sunday)" },
  { value: "range", label: "The dashboard's date range" },
  { value: "change", label: "Change vs the comparison period" },
];

let counter = 0;

export function newGoalDraft(metric: string | null): GoalDraft {
  counter += 1;
  return { key: `goal-${counter}`, metric, target: null, period: "month" };
}

export function goalDrafts(goals: readonly TWidgetGoal[] | undefined): GoalDraft[] {
  return (goals ?? []).map((goal) => ({ ...newGoalDraft(goal.metric), target: goal.target, period: goal.period }));
}

/** The goals a widget saves: every draft, once complete (an incomplete one keeps Save disabled). */
export function builtGoals(drafts: readonly GoalDraft[]): TWidgetGoal[] {
  return drafts.flatMap((goal) =>
    goal.metric !== null && goal.target !== null
      ? [{ metric: goal.metric, target: goal.target, period: goal.period }]
      : [],
  );
}

/**
 * Each goal's errors, by the contract's own rules: its fields (ZWidgetGoal) and, against the widget's
 * instances, a metric the widget does not show or a second goal for one metric and period. An empty
 * target shows nothing until typed (the form says "Fill in the required fields." and keeps Save off).
 */
export function goalErrors(drafts: readonly GoalDraft[], instances: TWidgetInstance[]): GoalErrors[] {
  const errors: GoalErrors[] = drafts.map((draft) => {
    if (draft.metric === null) return { metric: WIDGET_GOAL_MESSAGES.metricRequired };
    if (draft.target === null) return {};
    const parsed = ZWidgetGoal.safeParse({ metric: draft.metric, target: draft.target, period: draft.period });
    if (parsed.success) return {};
    const found: GoalErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === "metric" || field === "target" || field === "period") && !found[field])
        found[field] = issue.message;
    }
    return found;
  });
  const complete = drafts
    .map((draft, index) => ({ draft, index }))
    .filter(({ draft }) => draft.metric !== null && draft.target !== null);
  const issues = widgetGoalIssues(instances, builtGoals(complete.map(({ draft }) => draft)));
  for (const issue of issues) {
    const [, position, field] = issue.path;
    const index = complete[Number(position)]?.index;
    if (index === undefined || (field !== "metric" && field !== "period")) continue;
    errors[index][field] ??= issue.message;
  }
  return errors;
}

/** True when every goal is complete and has no error. */
export function goalsValid(drafts: readonly GoalDraft[], instances: TWidgetInstance[]): boolean {
  return (
    drafts.every((draft) => draft.metric !== null && draft.target !== null) &&
    goalErrors(drafts, instances).every((errors) => Object.keys(errors).length === 0)
  );
}

/** How a metric's values read, for the target field: from the widget's data when it has some. */
export type GoalMetricUnit = Pick<TTableMetric, "format" | "currency" | "lowerIsBetter">;
