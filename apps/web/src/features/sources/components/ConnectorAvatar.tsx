import { Avatar, Box } from "@mantine/core";
import { CONNECTOR_LOGOS } from "../../../ui/connector-logos";
import { connectorColour, connectorInitials } from "../auth-kinds";

/**
 * A connector's tile: its provider's mark on a quiet tile (an image named after the provider), or its
 * initials on its own colour for a connector without a drawn mark.
 */
export function ConnectorAvatar({
  connectorKey,
  displayName,
  size = 40,
}: {
  connectorKey: string;
  displayName: string;
  size?: number;
}) {
  const Logo = CONNECTOR_LOGOS[connectorKey];
  if (Logo) {
    return (
      <Box
        w={size}
        h={size}
        style={{
          flex: "none",
          display: "grid",
          placeItems: "center",
          borderRadius: "var(--mantine-radius-md)",
          background: "var(--mantine-color-white)",
          border: "1px solid var(--mantine-color-gray-2)",
        }}
      >
        <Logo size={Math.round(size * 0.7)} />
      </Box>
    );
  }
  return (
    <Avatar size={size} radius="md" color={connectorColour(connectorKey)} variant="light" aria-hidden="true">
      {connectorInitials(displayName)}
    </Avatar>
  );
}
