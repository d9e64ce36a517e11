import { WIDGET_GOAL_MESSAGES } from "@app/core";
import { buildWidget } from "@app/core/widgets/test-fixtures";
import { describe, expect, it } from "vitest";
import { goalDrafts } from "./goal-draft";
import { refusedGoalErrors, refusedGoals } from "./refused";

const sent = [buildWidget({ id: "first" }), buildWidget({ id: "second" })];

describe("refusedGoals: which widget a refused save names, and its goals' fields", () => {
  it.each([
    ["no errors", null, null],
    ["errors on other fields", { name: "The name field is required." }, null],
    [
      "a goal's target of the second widget",
      { "widgets.1.goals.0.target": WIDGET_GOAL_MESSAGES.targetNegative },
      { widgetId: "second", fields: { "goals.0.target": WIDGET_GOAL_MESSAGES.targetNegative } },
    ],
    [
      "two fields of one widget, the list too",
      {
        "widgets.0.goals.1.period": WIDGET_GOAL_MESSAGES.duplicate,
        "widgets.0.goals": WIDGET_GOAL_MESSAGES.tooMany,
      },
      {
        widgetId: "first",
        fields: { "goals.1.period": WIDGET_GOAL_MESSAGES.duplicate, goals: WIDGET_GOAL_MESSAGES.tooMany },
      },
    ],
    [
      "two widgets: the first named",
      { "widgets.1.goals.0.metric": "a", "widgets.0.goals.0.target": "b" },
      { widgetId: "second", fields: { "goals.0.metric": "a" } },
    ],
    ["a widget the save did not send", { "widgets.5.goals.0.target": "a" }, null],
    ["another field of a widget", { "widgets.0.title": "Too long." }, null],
  ])("%s", (_name, errors, expected) => {
    expect(refusedGoals(errors, sent)).toEqual(expected);
  });
});

describe("refusedGoalErrors: the messages by the form's goals", () => {
  const drafts = goalDrafts([
    { metric: "a.sessions", target: 1, period: "month" },
    { metric: "a.sessions", target: 2, period: "week" },
  ]);
  it("puts each message on its goal's field, and the list's apart", () => {
    const { byKey, list } = refusedGoalErrors(
      { "goals.1.target": "t", "goals.1.period": "p", "goals.4.metric": "gone", goals: "many" },
      drafts,
    );
    expect([...byKey.entries()]).toEqual([[drafts[1].key, { target: "t", period: "p" }]]);
    expect(list).toBe("many");
  });
  it("nothing refused", () => {
    expect(refusedGoalErrors(undefined, drafts)).toEqual({ byKey: new Map(), list: null });
  });
});
