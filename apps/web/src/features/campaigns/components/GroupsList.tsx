import type { TCampaignSummary } from "@app/core";
import { Badge, Button, Card, EmptyState, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import { Link } from "react-router";
import { IconArrowRight, IconPlus, IconTarget } from "../../../ui/icons";
import { countLabel } from "../view-model";

/** The company's groups as cards: name, domain count and open alerts (red when there are any). */
export function GroupsList({ groups, isAdmin }: { groups: TCampaignSummary[]; isAdmin: boolean }) {
  if (groups.length === 0) return <GroupsEmpty isAdmin={isAdmin} />;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
      {groups.map((group) => (
        <Card
          key={group.id}
          component={Link}
          to={`/groups/${encodeURIComponent(group.id)}`}
          withBorder
          padding="lg"
          aria-label={`${group.name}: ${countLabel(group.domain_count, "domain", "domains")}, ${countLabel(group.open_alert_count, "open alert", "open alerts")}`}
        >
          <Stack gap="sm">
            <Group justify="space-between" wrap="nowrap" gap="sm">
              <Text fw={600} size="lg" style={{ overflowWrap: "anywhere" }}>
                {group.name}
              </Text>
              <IconArrowRight size={18} aria-hidden />
            </Group>
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {countLabel(group.domain_count, "domain", "domains")}
              </Text>
              <Badge
                color={group.open_alert_count > 0 ? "red" : "gray"}
                variant={group.open_alert_count > 0 ? "filled" : "light"}
              >
                {group.open_alert_count > 0
                  ? countLabel(group.open_alert_count, "open alert", "open alerts")
                  : "No open alerts"}
              </Badge>
            </Group>
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** No group yet: admins are invited to create one, members told that an admin does. */
function GroupsEmpty({ isAdmin }: { isAdmin: boolean }) {
  return (
    <Card py={56}>
      <EmptyState
        variant="light"
        icon={<IconTarget size={26} />}
        title="No groups yet"
        description={
          isAdmin
            ? "Create a group, add the domains you look after, and see at a glance which of them gained or lost traffic, authority or rankings."
            : "Groups of domains to watch are created by an admin of your company. Once one exists, it appears here."
        }
        styles={{ description: { maxWidth: 480 } }}
      >
        {isAdmin ? (
          <EmptyState.Actions>
            <Button component={Link} to="/groups/create" leftSection={<IconPlus size={16} />}>
              Create your first group
            </Button>
          </EmptyState.Actions>
        ) : null}
      </EmptyState>
    </Card>
  );
}
