import { Box, Collapse, Group, Text, UnstyledButton } from "@mantine/core";
import { type ReactNode, useId, useState } from "react";
import { IconChevronDown } from "../../../ui/icons";

/**
 * A folded part of the form. Unlike an accordion panel, the content is not labelled by the toggle,
 * so a field inside keeps the one accessible name its own label gives it.
 */
export function Disclosure({
  title,
  children,
  initiallyOpen = false,
}: {
  title: string;
  children: ReactNode;
  /** Open as the form opens (a part holding the server's errors). */
  initiallyOpen?: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const id = useId();
  return (
    <Box style={{ border: "1px solid var(--mantine-color-gray-3)", borderRadius: "var(--mantine-radius-md)" }}>
      <UnstyledButton
        w="100%"
        px="md"
        py="sm"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((current) => !current)}
      >
        <Group justify="space-between" wrap="nowrap">
          <Text fz="sm" fw={600}>
            {title}
          </Text>
          <IconChevronDown
            size={16}
            style={{ transform: open ? "rotate(180deg)" : undefined, transition: "transform 150ms ease" }}
          />
        </Group>
      </UnstyledButton>
      <Collapse expanded={open} id={id}>
        <Box px="md" pb="md">
          {open ? children : null}
        </Box>
      </Collapse>
    </Box>
  );
}
