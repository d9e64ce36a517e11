import type { TInteractiveWidget, TWidgetDataResponse } from "@app/core";
import { widgetType } from "../../connectors";
import type { RateLimitStore } from "../../infra/rate-limit-store";

type Instances = TInteractiveWidget["instances"];

/**
 * The dimension value insights may ask these instances' query by (the connectors' `insightDimensions`
 * table): `date` for the daily history, `breakdown` for the most informative dimension. Null when an
 * instance's type offers none or the instances disagree (their rows would not pair by value).
 */
export function extraDimension(instances: Instances, kind: "date" | "breakdown"): string | null {
  const values = instances.map((instance) => {
    const found = widgetType(instance.type);
    return found?.connector.insightDimensions?.[instance.type]?.[kind] ?? null;
  });
  const [first] = values;
  return first && values.every((value) => value === first) ? first : null;
}

/**
 * Whether insights may spend an optional query (history, breakdown) on a widget now, without eating into
 * what viewers need (docs/decisions.md, insights budget). The widget's own answer must carry no notice
 * (a notice means a provider was held, throttled or down and stored numbers were served: the shared
 * state every process sees says "spent"), and each instance's connector must agree through the same
 * question pre-warm asks (`prewarmAllowed`: GA4's property tokens above the reserve, a Meta usage hold,
 * a Search Console site's minute). A connector without such a hook relies on the first rule.
 */
export async function optionalQueryAllowed(
  counters: RateLimitStore,
  instances: Instances,
  answer: Pick<TWidgetDataResponse["data"], "notices">,
): Promise<boolean> {
  if ((answer.notices ?? []).length > 0) return false;
  for (const instance of instances) {
    const connector = widgetType(instance.type)?.connector;
    if (!connector) return false;
    if (connector.prewarmAllowed && !(await connector.prewarmAllowed(counters, instance.type, instance.inputs))) {
      return false;
    }
  }
  return true;
}
