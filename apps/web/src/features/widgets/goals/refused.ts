import type { TWidget } from "@app/core";
import type { GoalDraft, GoalErrors } from "./goal-draft";

/** A dashboard save's 422 on one widget's goals: the widget and its fields' messages, keyed as the widget's own. */
export interface RefusedGoals {
  widgetId: string;
  /** `goals.0.target`, `goals` (too many): the server's first message of each. */
  fields: Record<string, string>;
}

const GOAL_FIELD = /^widgets\.(\d+)\.(goals(?:\.\d+\.(?:metric|target|period))?)$/;

/**
 * The first widget whose goals a refused save names (`widgets.2.goals.0.target`), by the widgets that
 * save sent; null when the refusal names no goal.
 */
export function refusedGoals(errors: Record<string, string> | null, sent: readonly TWidget[]): RefusedGoals | null {
  let found: RefusedGoals | null = null;
  for (const [key, message] of Object.entries(errors ?? {})) {
    const match = GOAL_FIELD.exec(key);
    const widget = match ? sent[Number(match[1])] : undefined;
    if (!match || !widget || (found && found.widgetId !== widget.id)) continue;
    found ??= { widgetId: widget.id, fields: {} };
    found.fields[match[2]] = message;
  }
  return found;
}

/** The server's messages per goal of the form (by the draft's key, as the form opened) and for the list. */
export function refusedGoalErrors(
  fields: Record<string, string> | undefined,
  drafts: readonly GoalDraft[],
): { byKey: ReadonlyMap<string, GoalErrors>; list: string | null } {
  const byKey = new Map<string, GoalErrors>();
  for (const [key, message] of Object.entries(fields ?? {})) {
    const [, position, field] = key.split(".");
    const draft = drafts[Number(position)];
    if (!draft || (field !== "metric" && field !== "target" && field !== "period")) continue;
    byKey.set(draft.key, { ...byKey.get(draft.key), [field]: message });
  }
  return { byKey, list: fields?.goals ?? null };
}
