import { formatDisplayDate, type TDashboardListItem } from "@app/core";
import { Anchor, Badge, Box, Card, Group, Stack, Text, Tooltip } from "@mantine/core";
import dayjs from "dayjs";
import { Link } from "react-router";
import { IconDashboard, IconLock } from "../../../ui/icons";
import { DashboardActionsMenu } from "./DashboardActionsMenu";

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
      <Card.Section>
        <Box
          component={Link}
          to={href}
          tabIndex={-1}
          aria-hidden="true"
          h={88}
          style={{
            display: "flex",
            alignItems: "center",
            justifyContent: "center",
            background: dashboard.active
              ? "linear-gradient(135deg, var(--mantine-color-brand-0), var(--mantine-color-brand-1))"
              : "var(--mantine-color-gray-1)",
            color: dashboard.active ? "var(--mantine-color-brand-5)" : "var(--mantine-color-gray-5)",
          }}
        >
          <IconDashboard size={34} />
        </Box>
      </Card.Section>
      <Stack gap={6} mt="md">
        <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
          <Anchor
            component={Link}
            to={href}
            fw={600}
            c="var(--mantine-color-text)"
            lineClamp={2}
            style={{ minWidth: 0, wordBreak: "break-word" }}
          >
            {dashboard.name}
          </Anchor>
          <DashboardActionsMenu dashboard={dashboard} />
        </Group>
        <Text size="xs" c="dimmed">
          {widgets} · {updatedText(dashboard.updatedAt)}
        </Text>
        {dashboard.passwordProtected || !dashboard.active ? (
          <Group gap={6}>
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
    </Card>
  );
}
