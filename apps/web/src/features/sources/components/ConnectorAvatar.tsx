import { Avatar } from "@mantine/core";
import { connectorColour, connectorInitials } from "../auth-kinds";

/** A connector's tile: its initials on its own colour (the product ships no third-party logos). */
export function ConnectorAvatar({
  connectorKey,
  displayName,
  size = 40,
}: {
  connectorKey: string;
  displayName: string;
  size?: number;
}) {
  return (
    <Avatar size={size} radius="md" color={connectorColour(connectorKey)} variant="light" aria-hidden="true">
      {connectorInitials(displayName)}
    </Avatar>
  );
}
