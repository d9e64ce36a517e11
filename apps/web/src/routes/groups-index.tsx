import { Button } from "@mantine/core";
import { Link } from "react-router";
import { useIsAdmin } from "../features/session/hooks";
import { ComingSoon } from "../ui/ComingSoon";
import { IconPlus, IconTarget } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /groups (campaigns.index) */
export default function GroupsIndexScreen() {
  const isAdmin = useIsAdmin();
  return (
    <>
      <PageHeader
        title="Groups"
        description="Mission Control: watch your domains and get alerted when they change."
        actions={
          isAdmin ? (
            <Button component={Link} to="/groups/create" leftSection={<IconPlus size={16} />}>
              Create group
            </Button>
          ) : null
        }
      />
      <ComingSoon icon={<IconTarget size={26} />}>
        Your groups will be listed here with their domains, alerts and a 7-day or 30-day change toggle.
      </ComingSoon>
    </>
  );
}
