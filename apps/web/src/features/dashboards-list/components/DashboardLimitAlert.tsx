import { Alert, Anchor, Stack, Text } from "@mantine/core";
import { Link } from "react-router";
import { IconAlert } from "../../../ui/icons";
import { useIsAdmin } from "../../session/hooks";
import { DASHBOARD_LIMIT_TITLE } from "../limit";

const DEFAULT_MESSAGE =
  "Every dashboard of your plan is in use. Archive one you no longer need or raise the number of dashboards.";

/** Banner 121 in place: every dashboard of the plan is in use; admins are pointed at the subscription. */
export function DashboardLimitAlert({ message }: { message?: string | null }) {
  const isAdmin = useIsAdmin();
  return (
    <Alert color="yellow" variant="light" icon={<IconAlert />} title={DASHBOARD_LIMIT_TITLE}>
      <Stack gap={6}>
        <Text size="sm">{message || DEFAULT_MESSAGE}</Text>
        {isAdmin ? (
          <Anchor component={Link} to="/company/subscription" fw={600} size="sm">
            Update your subscription
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            Ask an admin of your company to update the subscription.
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
