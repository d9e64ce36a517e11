import { Button, Group, Stepper } from "@mantine/core";
import { IconChevronLeft } from "./icons";

export interface StepIndicatorStep {
  label: string;
  description?: string;
}

export interface StepIndicatorProps {
  steps: StepIndicatorStep[];
  /** Index of the current step. */
  active: number;
  /** Whether the user may go back to earlier steps at all. */
  backEnabled?: boolean;
  onChange: (step: number) => void;
}

/** Step indicator with a BACK button: only earlier steps, and only when going back is enabled (docs/product.md §2). */
export function StepIndicator({ steps, active, backEnabled = false, onChange }: StepIndicatorProps) {
  const canGoTo = (step: number) => backEnabled && step < active;
  return (
    <Group align="center" gap="md" wrap="nowrap">
      {backEnabled && active > 0 ? (
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconChevronLeft size={16} />}
          onClick={() => onChange(active - 1)}
        >
          BACK
        </Button>
      ) : null}
      <Stepper
        active={active}
        onStepClick={(step) => {
          if (canGoTo(step)) onChange(step);
        }}
        size="sm"
        style={{ flex: 1 }}
      >
        {steps.map((step, index) => (
          <Stepper.Step
            key={step.label}
            label={step.label}
            description={step.description}
            allowStepSelect={canGoTo(index)}
          />
        ))}
      </Stepper>
    </Group>
  );
}
