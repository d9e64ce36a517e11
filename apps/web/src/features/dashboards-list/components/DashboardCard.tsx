import { formatDisplayDate, type TDashboardListItem } from "@app/core";
import { Anchor, Badge, Card, Group, Stack, Text, ThemeIcon, Tooltip } from "@mantine/core";
import dayjs from "dayjs";
import { Link } from "react-router";
import { IconDashboard, IconLock } from "../../../ui/icons";
import { DashboardActionsMenu } from "./DashboardActionsMenu";

const TILE_COLOURS = ["brand", "teal", "orange", "grape", "cyan", "pink", "indigo", "lime"] as const;

/** A stable colour per dashboard so a long list is easier to scan. */
function tileColour(id: string): (typeof TILE_COLOURS)[number] {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return TILE_COLOURS[hash % TILE_COLOURS.length];
}

function updatedText(updatedAt: string): string {
  const day = dayjs(updatedAt);
  return day.isValid() ? `Updated ${formatDisplayDate(day.format("YYYY-MM-DD"))}` : "";
}

/** One dashboard of the list: its name links to it; the menu holds clone, archive/restore and delete. */
export function DashboardCard({ dashboard }: { dashboard: TDashboardListItem }) {
  const href = `/dashboards/${dashboard.permalink}`;
  const widgets = dashboard.widgetsCount === 1 ? "1 widget" : `${dashboard.widgetsCount} widgets`;
  return (
    <Card component="article" aria-label={dashboard.name} padding="md" h="100%">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon
          size={44}
          radius="md"
          variant="light"
          color={dashboard.active ? tileColour(dashboard.id) : "gray"}
          aria-hidden="true"
        >
          <IconDashboard size={22} />
        </ThemeIcon>
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Anchor
            component={Link}
            to={href}
            fw={600}
            c="var(--mantine-color-text)"
            lineClamp={2}
            style={{ wordBreak: "break-word" }}
          >
            {dashboard.name}
          </Anchor>
          <Text size="xs" c="dimmed" component="div" className="meta-list">
            {/* Items never break inside; the dot between them is clipped when the next starts a line. */}
            <ul aria-label="Details">
              <li>{widgets}</li>
              <li>{updatedText(dashboard.updatedAt)}</li>
            </ul>
          </Text>
          {dashboard.passwordProtected || !dashboard.active ? (
            <Group gap={6} mt={2}>
              {dashboard.passwordProtected ? (
                <Tooltip label="Viewers need a password">
                  <Badge size="sm" color="gray" tt="none" leftSection={<IconLock size={12} />}>
                    Password
                  </Badge>
                </Tooltip>
              ) : null}
              {dashboard.active ? null : (
                <Badge size="sm" color="yellow" tt="none">
                  Archived
                </Badge>
              )}
            </Group>
          ) : null}
        </Stack>
        <DashboardActionsMenu dashboard={dashboard} />
      </Group>
    </Card>
  );
}
