import { Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** Heading and body of a sign-in, registration or invitation form. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="xl" w="100%">
      <Stack gap={6}>
        <Title order={1} fz={28}>
          {title}
        </Title>
        {subtitle ? (
          <Text c="dimmed" size="sm">
            {subtitle}
          </Text>
        ) : null}
      </Stack>
      {children}
    </Stack>
  );
}
