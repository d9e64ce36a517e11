import type { OnboardingHint } from "@app/core";
import { Button, Group, Popover, Stack, Text } from "@mantine/core";
import type { CSSProperties, ReactNode } from "react";
import { onboardingStore } from "../instance";

/** The wrapper a hint hangs from: it takes the control's place in a row without changing its size. */
const ANCHOR_STYLE: CSSProperties = { display: "inline-flex", maxWidth: "100%" };

// Above the page and its sticky headers, below modals (200), so guard 4's message covers it.
const HINT_Z_INDEX = 190;

/** A step's tooltip hint with its ok button (docs/product.md §2), hanging from the control it names. */
export function HintPopover({
  anchor,
  hint,
  children,
}: {
  anchor: string;
  hint: OnboardingHint | null;
  children: ReactNode;
}) {
  return (
    <Popover
      opened={hint !== null}
      position="bottom"
      withArrow
      arrowSize={10}
      shadow="md"
      width={260}
      zIndex={HINT_Z_INDEX}
      // The hint stays until its ok button or the step is done; it never takes the keyboard focus.
      closeOnClickOutside={false}
      closeOnEscape={false}
      trapFocus={false}
      returnFocus={false}
      hideDetached
      withinPortal
    >
      <Popover.Target>
        <span style={ANCHOR_STYLE} data-onboarding={anchor}>
          {children}
        </span>
      </Popover.Target>
      <Popover.Dropdown
        role="status"
        // A closing hint may stay in the page a moment: only the open one carries the test id.
        data-testid={hint ? "onboarding-hint" : undefined}
        bg="brand.8"
        c="white"
        style={{ borderColor: "var(--mantine-color-brand-8)" }}
      >
        {hint ? (
          <Stack gap="xs">
            <Text size="sm" fw={500}>
              {hint.text}
            </Text>
            <Group justify="flex-end">
              <Button size="compact-sm" variant="white" miw={56} onClick={() => onboardingStore.dismissHint(hint.step)}>
                OK
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Popover.Dropdown>
    </Popover>
  );
}
