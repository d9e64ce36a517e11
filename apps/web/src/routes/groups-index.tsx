import { Alert, Button } from "@mantine/core";
import { Link } from "react-router";
import { GroupsList, useCampaigns } from "../features/campaigns";
import { useIsAdmin } from "../features/session/hooks";
import { errorMessage } from "../lib/api";
import { PageLoader } from "../ui/AppLoader";
import { IconAlert, IconPlus } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /groups (campaigns.index) */
export default function GroupsIndexScreen() {
  const isAdmin = useIsAdmin();
  const groups = useCampaigns();
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
      {groups.data ? (
        <GroupsList groups={groups.data} isAdmin={isAdmin} />
      ) : groups.isPending ? (
        <PageLoader />
      ) : (
        <Alert color="red" icon={<IconAlert />}>
          {errorMessage(groups.error)}
        </Alert>
      )}
    </>
  );
}
