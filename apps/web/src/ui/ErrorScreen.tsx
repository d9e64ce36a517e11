import { Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";

/** A friendly full-width error page with a way back home. */
export function ErrorScreen({
  code,
  title,
  message,
  actions,
}: {
  code: string;
  title: string;
  message: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Card py={64} px="xl">
      <Stack align="center" gap="md" ta="center" maw={520} mx="auto">
        <Text
          fz={88}
          fw={800}
          lh={1}
          style={{
            letterSpacing: -4,
            background: "linear-gradient(135deg, var(--mantine-color-brand-3), var(--mantine-color-brand-7))",
            WebkitBackgroundClip: "text",
            backgroundClip: "text",
            color: "transparent",
          }}
          aria-hidden="true"
        >
          {code}
        </Text>
        <Title order={1}>{title}</Title>
        <Text c="dimmed">{message}</Text>
        <Group mt="md" justify="center">
          {actions}
          <Button component={Link} to="/">
            Back to home
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
