import { Alert, Anchor, Stack, Text } from "@mantine/core";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { IconAlert } from "../../../ui/icons";
import { useIsAdmin } from "../../session/hooks";
import { DASHBOARD_LIMIT_TITLE } from "../limit";

const DEFAULT_MESSAGE =
  "Every dashboard of your plan is in use. Archive one you no longer need or raise the number of dashboards.";

/** The server's explanation (its 422 `errors.general`), or ours before any request was made. */
function bodyOf(message: string | null | undefined): string {
  return message?.trim() || DEFAULT_MESSAGE;
}

/**
 * Banner 121 in place: every dashboard of the plan is in use; admins get a link to the subscription.
 * When it appears after a refused submit it scrolls into view, since the button is far below it on phones.
 */
export function DashboardLimitAlert({ message, reveal = false }: { message?: string | null; reveal?: boolean }) {
  const isAdmin = useIsAdmin();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (reveal) ref.current?.scrollIntoView({ behavior: "smooth", block: "center" });
  }, [reveal]);
  return (
    <Alert ref={ref} color="yellow" variant="light" icon={<IconAlert />} title={DASHBOARD_LIMIT_TITLE}>
      <Stack gap={6}>
        <Text size="sm">{bodyOf(message)}</Text>
        {isAdmin ? (
          <Anchor component={Link} to="/company/subscription" fw={600} size="sm">
            Go to subscription
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
