import { Button, Card, EmptyState } from "@mantine/core";
import { Link } from "react-router";
import { IconArchive, IconDashboard, IconPlus, IconSearch } from "../../../ui/icons";
import type { DashboardStatus } from "./DashboardFilters";

/** What an empty list says: an invitation to create the first dashboard, or why nothing matched. */
export function DashboardsEmpty({ status, search }: { status: DashboardStatus; search: string }) {
  if (search) {
    return (
      <Card py={48}>
        <EmptyState
          icon={<IconSearch size={26} />}
          withIndicatorBackground
          title="No dashboards found"
          description={`No ${status} dashboard has a name containing “${search}”.`}
        />
      </Card>
    );
  }
  if (status === "archived") {
    return (
      <Card py={48}>
        <EmptyState
          icon={<IconArchive size={26} />}
          withIndicatorBackground
          title="No archived dashboards"
          description="Dashboards you archive are kept here and can be restored at any time. Archived dashboards do not count towards your allowance."
          styles={{ description: { maxWidth: 460 } }}
        />
      </Card>
    );
  }
  return (
    <Card py={56}>
      <EmptyState
        variant="light"
        icon={<IconDashboard size={26} />}
        title="Create your first dashboard"
        description="Start from a ready-made template or a blank page, connect your sources, then share it with clients or send it as an automatic report."
        styles={{ description: { maxWidth: 480 } }}
      >
        <EmptyState.Actions>
          <Button component={Link} to="/dashboards/create" leftSection={<IconPlus size={16} />}>
            New dashboard
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Card>
  );
}
