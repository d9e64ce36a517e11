import { DOMAIN_METRICS, formatNumber, type TAlertRule, type TAlertRuleOverride } from "@app/core";

/** The unit a rule's threshold is typed in, shown beside the field ("" for a plain amount such as DR points). */
export function thresholdUnit(rule: Pick<TAlertRule, "metric" | "condition">): string {
  if (rule.condition === "noDataFor") return "days";
  if (rule.condition === "worseByPercent") return "%";
  const unit = DOMAIN_METRICS[rule.metric].changeUnit;
  return unit === "positions" ? "positions" : unit === "points" ? "points" : "";
}

/**
 * A rule in one line, as the rules form lists it: "Clicks: down 20% or more in 7 days against the 7
 * before (from 100 clicks)". "Worse" follows the metric: average position worsens by rising.
 */
export function describeRule(rule: TAlertRule): string {
  const definition = DOMAIN_METRICS[rule.metric];
  const label = definition.label;
  if (rule.condition === "noDataFor") {
    return `${label}: no data for ${formatNumber(rule.threshold)} ${rule.threshold === 1 ? "day" : "days"}`;
  }
  const unit = thresholdUnit(rule);
  const amount =
    unit === "%"
      ? `${formatNumber(rule.threshold)}%`
      : unit === ""
        ? formatNumber(rule.threshold)
        : `${formatNumber(rule.threshold)} ${rule.threshold === 1 ? unit.replace(/s$/, "") : unit}`;
  const direction = definition.lowerIsBetter ? "worse by" : "down";
  const span =
    definition.kind === "flow"
      ? `in ${rule.window} days against the ${rule.window} before`
      : `over ${rule.window} days`;
  const baseline =
    rule.minBaseline !== null && rule.minBaseline > 0
      ? ` (when the earlier period had ${formatNumber(rule.minBaseline)} ${label.toLowerCase()} or more)`
      : "";
  return `${label}: ${direction} ${amount} or more ${span}${baseline}`;
}

const EDITABLE = ["threshold", "window", "minBaseline", "enabled"] as const;

/**
 * A group's overrides: for each of the company's rules, the fields the group's edited copy changes.
 * Rules left as the company has them give no override, so a later change of the company's rule still
 * reaches the group.
 */
export function overridesFrom(company: readonly TAlertRule[], edited: readonly TAlertRule[]): TAlertRuleOverride[] {
  const byId = new Map(edited.map((rule) => [rule.id, rule]));
  const overrides: TAlertRuleOverride[] = [];
  for (const base of company) {
    const rule = byId.get(base.id);
    if (!rule) continue;
    const override: TAlertRuleOverride = { id: base.id };
    let changed = false;
    for (const field of EDITABLE) {
      if (rule[field] !== base[field]) {
        (override as Record<string, unknown>)[field] = rule[field];
        changed = true;
      }
    }
    if (changed) overrides.push(override);
  }
  return overrides;
}
