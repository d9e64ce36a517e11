import { Avatar, Box } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { connectorColour, connectorInitials } from "../auth-kinds";
import { connectorLogoQuery } from "../queries";

/**
 * The mark at `size` pixels. Ids inside an inline SVG are document-wide: each copy of a logo gets its
 * own (a gradient's id and its `url(#…)` references), so a hidden copy never breaks another's gradient.
 */
function sized(svg: string, size: number, suffix: string): string {
  return svg
    .replace(/^<svg /, `<svg width="${size}" height="${size}" `)
    .replace(/\bid="([^"]+)"/g, `id="$1-${suffix}"`)
    .replace(/url\(#([^)]+)\)/g, `url(#$1-${suffix})`);
}

/**
 * A connector's tile: its provider's mark (served with the connector, GET
 * /api/configs/connectors/:key/logo.svg) drawn inline on a quiet tile, or its initials on its own colour
 * when the mark cannot be had.
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
  const logo = useQuery(connectorLogoQuery(connectorKey));
  const suffix = useId().replace(/[^A-Za-z0-9_-]/g, "");
  if (logo.isError) {
    return (
      <Avatar size={size} radius="md" color={connectorColour(connectorKey)} variant="light" aria-hidden="true">
        {connectorInitials(displayName)}
      </Avatar>
    );
  }
  const inner = Math.round(size * 0.7);
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
      {logo.data ? (
        <Box
          w={inner}
          h={inner}
          style={{ lineHeight: 0 }}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own static SVG of a registered connector (connectors/<key>/logo.ts), never user input; inline so it reads as an image named after its provider
          dangerouslySetInnerHTML={{ __html: sized(logo.data, inner, suffix) }}
        />
      ) : null}
    </Box>
  );
}
