import type { TConnector } from "@app/core";
import { Badge, Card, Group, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { AUTH_KIND_LABELS } from "../auth-kinds";
import { ConnectorAvatar } from "./ConnectorAvatar";

/** One entry of the catalogue: name, how it signs in, its note, and what can be done with it here. */
export function ConnectorCard({
  connector,
  status,
  children,
}: {
  connector: TConnector;
  /** Shown next to the name, e.g. a 'Connected' badge. */
  status?: ReactNode;
  /** The connect action; absent for connectors that cannot be connected yet. */
  children?: ReactNode;
}) {
  const muted = !connector.available;
  return (
    <Card
      component="article"
      aria-label={connector.displayName}
      shadow={muted ? undefined : "xs"}
      bg={muted ? "gray.0" : undefined}
      h={muted ? "100%" : undefined}
      padding={muted ? "sm" : "md"}
    >
      <Stack gap={muted ? 6 : "sm"}>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ConnectorAvatar connectorKey={connector.key} displayName={connector.displayName} size={muted ? 34 : 40} />
          <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
            {/* The whole name, wrapped if need be, and the status beside it or under it: never cut to "Google…". */}
            <Group gap={6} justify="space-between" wrap="wrap">
              <Title order={3} size="h5" style={{ overflowWrap: "break-word", minWidth: 0 }}>
                {connector.displayName}
              </Title>
              {status}
            </Group>
            <Group gap={6}>
              <Badge color="gray" variant="light" size="sm" tt="none">
                {AUTH_KIND_LABELS[connector.authKind]}
              </Badge>
            </Group>
          </Stack>
        </Group>
        {connector.note ? (
          <Text size={muted ? "xs" : "sm"} c="dimmed">
            {connector.note}
          </Text>
        ) : null}
        {children ? <Stack mt={4}>{children}</Stack> : null}
      </Stack>
    </Card>
  );
}
