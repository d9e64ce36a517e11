import { Button } from "@mantine/core";
import { Link } from "react-router";
import { useIsAdmin } from "../features/session/hooks";
import { ErrorScreen } from "../ui/ErrorScreen";

/** /402 (subscriptionRequired) */
export default function SubscriptionRequiredScreen() {
  const isAdmin = useIsAdmin();
  return (
    <ErrorScreen
      code="402"
      title="A subscription is needed"
      message={
        isAdmin
          ? "This needs an active subscription. Choose a plan to keep your dashboards and reports running."
          : "This needs an active subscription. Ask an admin of your company to choose a plan."
      }
      actions={
        isAdmin ? (
          <Button component={Link} to="/company/subscription" variant="default">
            View subscription
          </Button>
        ) : null
      }
    />
  );
}
