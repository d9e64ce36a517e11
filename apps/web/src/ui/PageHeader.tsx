import { Group, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** The heading block every screen starts with. */
export function PageHeader({
  title,
  description,
  actions,
  eyebrow,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  eyebrow?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end" mb="xl" gap="md">
      <Stack gap={4} style={{ minWidth: 0 }}>
        {eyebrow ? (
          <Text size="xs" fw={600} tt="uppercase" c="brand.7" style={{ letterSpacing: 0.6 }}>
            {eyebrow}
          </Text>
        ) : null}
        <Title order={1}>{title}</Title>
        {description ? (
          <Text c="dimmed" size="sm" maw={640}>
            {description}
          </Text>
        ) : null}
      </Stack>
      {actions ? <Group gap="sm">{actions}</Group> : null}
    </Group>
  );
}
