import { MAX_REGISTRATION_DASHBOARDS } from "@app/core";
import { Input, SegmentedControl } from "@mantine/core";
import { NumberField } from "../../../ui/NumberField";

/** Dashboards a plan may have (docs/product.md §9: at least 1; the registration's ceiling). */
export const PLAN_DASHBOARDS_LIMITS = { min: 1, max: MAX_REGISTRATION_DASHBOARDS };

/** The billing interval as the segmented control holds it: months, "1" or "12". */
export type PlanInterval = "1" | "12";

interface Props {
  dashboards: number | null;
  onDashboards: (value: number | null) => void;
  interval: PlanInterval;
  onInterval: (value: PlanInterval) => void;
  errors: { dashboards?: string; interval?: string };
}

/**
 * A plan's two choices, the same on the register page and the subscription page: how many dashboards and
 * monthly or annual billing. The caller lays them out (they are two grid cells) and prices them.
 */
export function PlanFields({ dashboards, onDashboards, interval, onInterval, errors }: Props) {
  return (
    <>
      <NumberField
        label="Dashboards"
        min={PLAN_DASHBOARDS_LIMITS.min}
        max={PLAN_DASHBOARDS_LIMITS.max}
        value={dashboards}
        onValueChange={onDashboards}
        error={errors.dashboards}
      />
      <Input.Wrapper label="Billing" error={errors.interval}>
        <SegmentedControl
          fullWidth
          mt={4}
          value={interval}
          onChange={(value) => onInterval(value === "12" ? "12" : "1")}
          data={[
            { value: "1", label: "Monthly" },
            { value: "12", label: "Annual" },
          ]}
        />
      </Input.Wrapper>
    </>
  );
}
