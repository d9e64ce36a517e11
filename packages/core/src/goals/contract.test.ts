// Tests of the goals' part of contract/dashboards.ts: each bad goal is a 422 on its own field.
import { describe, expect, it } from "vitest";
import {
  MAX_WIDGET_GOALS,
  WIDGET_GOAL_MESSAGES,
  ZDashboardSave,
  ZWidget,
  ZWidgetDataRequest,
} from "../contract/dashboards";
import { buildInstance, buildWidget } from "../widgets/test-fixtures";

const fieldsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.map(String).join("."), issue.message]));

const goal = (overrides: Record<string, unknown> = {}) => ({
  metric: "a.sessions",
  target: 70000,
  period: "month",
  ...overrides,
});

describe("widget goals on the dashboard save", () => {
  it.each<[string, unknown[], Record<string, string>]>([
    ["a monthly goal", [goal()], {}],
    [
      "a weekly, a range and a change goal",
      [goal({ period: "week" }), goal({ period: "range" }), goal({ period: "change", target: 10 })],
      {},
    ],
    ["a change goal may ask for a fall", [goal({ period: "change", target: -20 })], {}],
    ["a zero target", [goal({ target: 0 })], {}],
    [
      "a metric the widget does not show",
      [goal({ metric: "a.users" })],
      { "widgets.0.goals.0.metric": WIDGET_GOAL_MESSAGES.metricUnknown },
    ],
    ["no metric", [goal({ metric: "" })], { "widgets.0.goals.0.metric": WIDGET_GOAL_MESSAGES.metricRequired }],
    [
      "a target that is not a number",
      [goal({ target: "lots" })],
      { "widgets.0.goals.0.target": WIDGET_GOAL_MESSAGES.targetNumber },
    ],
    [
      "a negative monthly target",
      [goal({ target: -5 })],
      { "widgets.0.goals.0.target": WIDGET_GOAL_MESSAGES.targetNegative },
    ],
    [
      "a change of −100 %",
      [goal({ period: "change", target: -100 })],
      { "widgets.0.goals.0.target": WIDGET_GOAL_MESSAGES.changeTooLow },
    ],
    ["an unknown period", [goal({ period: "year" })], { "widgets.0.goals.0.period": WIDGET_GOAL_MESSAGES.period }],
    [
      "the same metric and period twice",
      [goal(), goal({ target: 1 })],
      { "widgets.0.goals.1.period": WIDGET_GOAL_MESSAGES.duplicate },
    ],
    [
      "too many goals",
      Array.from({ length: MAX_WIDGET_GOALS + 1 }, (_, index) =>
        goal({ target: index, period: index % 2 ? "month" : "week" }),
      ),
      { "widgets.0.goals": WIDGET_GOAL_MESSAGES.tooMany },
    ],
  ])("%s", (_name, goals, expected) => {
    const result = ZDashboardSave.safeParse({ widgets: JSON.stringify([buildWidget({ goals: goals as never })]) });
    const fields = fieldsOf(result);
    // Too many goals also repeats a metric and period: only the field under test is asserted.
    for (const [field, message] of Object.entries(expected)) expect(fields[field], field).toBe(message);
    if (Object.keys(expected).length === 0) expect(result.success).toBe(true);
  });

  it("a widget saved before goals is still valid", () => {
    const { goals: _none, ...before } = buildWidget();
    expect(ZWidget.safeParse(before).success).toBe(true);
  });

  it("names a second instance's metrics by their unique prefix", () => {
    const widget = buildWidget({
      instances: [buildInstance(), buildInstance({ id: "i2", prefix: "a" })],
      goals: [{ metric: "b.sessions", target: 1, period: "month" }],
    });
    expect(ZWidget.safeParse(widget).success).toBe(true);
  });
});

describe("widget goals on the widget-data request", () => {
  const request = (goals: unknown[]) => ({
    instances: [buildInstance()],
    startDate: "2026-11-01",
    endDate: "2026-11-27",
    goals,
  });

  it.each<[string, unknown[], Record<string, string>]>([
    ["a goal on a shown metric", [goal()], {}],
    [
      "a goal on another metric",
      [goal({ metric: "a.users" })],
      { "goals.0.metric": WIDGET_GOAL_MESSAGES.metricUnknown },
    ],
    ["a bad period", [goal({ period: "quarter" })], { "goals.0.period": WIDGET_GOAL_MESSAGES.period }],
  ])("%s", (_name, goals, expected) => {
    const result = ZWidgetDataRequest.safeParse(request(goals));
    expect(fieldsOf(result)).toEqual(expected);
  });
});
