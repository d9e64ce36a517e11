import { describe, expect, it } from "vitest";
import type { TWidget, TWidgetGoal } from "../contract/dashboards";
import { buildWidget } from "../widgets/test-fixtures";
import { type RemovedGoalMetric, removedGoalMetrics } from "./removed";

const goal = (metric: string, period: TWidgetGoal["period"] = "month"): TWidgetGoal => ({ metric, target: 1, period });
const widget = (id: string, goals: TWidgetGoal[] | undefined): TWidget => buildWidget({ id, goals });
const text = (id: string): TWidget => ({ ...buildWidget({ id }), nature: "passive" }) as unknown as TWidget;

describe("removedGoalMetrics", () => {
  it.each<[string, TWidget[], TWidget[], RemovedGoalMetric[]]>([
    ["nothing changed", [widget("w", [goal("a.sessions")])], [widget("w", [goal("a.sessions")])], []],
    [
      "the only goal removed",
      [widget("w", [goal("a.sessions")])],
      [widget("w", [])],
      [{ widgetId: "w", metric: "a.sessions" }],
    ],
    [
      "goals left out altogether",
      [widget("w", [goal("a.sessions")])],
      [widget("w", undefined)],
      [{ widgetId: "w", metric: "a.sessions" }],
    ],
    [
      "one of two periods removed: the metric still has a goal",
      [widget("w", [goal("a.sessions"), goal("a.sessions", "week")])],
      [widget("w", [goal("a.sessions", "week")])],
      [],
    ],
    [
      "a goal moved to another metric",
      [widget("w", [goal("a.sessions")])],
      [widget("w", [goal("a.users")])],
      [{ widgetId: "w", metric: "a.sessions" }],
    ],
    ["a goal added", [widget("w", [])], [widget("w", [goal("a.sessions")])], []],
    ["the widget removed (its rules say so themselves)", [widget("w", [goal("a.sessions")])], [], []],
    [
      "only the widget that lost it",
      [widget("w", [goal("a.sessions")]), widget("v", [goal("a.sessions")])],
      [widget("w", [goal("a.sessions")]), widget("v", [])],
      [{ widgetId: "v", metric: "a.sessions" }],
    ],
    ["a text card has none", [text("t")], [text("t")], []],
  ])("%s", (_name, before, after, expected) => {
    expect(removedGoalMetrics(before, after)).toEqual(expected);
  });
});
