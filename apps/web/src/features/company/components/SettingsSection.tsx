import { Card, Grid, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** A settings block: what it is about on the left, its controls on the right (stacked on phones). */
export function SettingsSection({
  title,
  description,
  children,
  danger = false,
}: {
  title: string;
  description: ReactNode;
  children: ReactNode;
  danger?: boolean;
}) {
  return (
    <Card style={danger ? { borderColor: "var(--mantine-color-red-3)" } : undefined}>
      <Grid gap={{ base: "md", md: "xl" }}>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap={4}>
            <Title order={3} c={danger ? "red.8" : undefined}>
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>{children}</Grid.Col>
      </Grid>
    </Card>
  );
}
