import { Alert, Button, Group } from "@mantine/core";
import { Link, useLocation, useNavigate } from "react-router";
import { AlertSettingsModal, GroupsList, useCampaigns } from "../features/campaigns";
import { useIsAdmin } from "../features/session/hooks";
import { errorMessage } from "../lib/api";
import { PageLoader } from "../ui/AppLoader";
import { IconAlert, IconPlus, IconSettings } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /groups (campaigns.index) */
export default function GroupsIndexScreen() {
  const isAdmin = useIsAdmin();
  const groups = useCampaigns();
  // The digest e-mail links here with #alert-settings: the rules open at once.
  const location = useLocation();
  const navigate = useNavigate();
  const settingsOpen = location.hash === "#alert-settings";
  const setSettingsOpen = (open: boolean) => navigate({ hash: open ? "alert-settings" : "" }, { replace: true });
  return (
    <>
      <PageHeader
        title="Groups"
        description="Mission Control: watch your domains and get alerted when they change."
        actions={
          <Group gap="sm">
            <Button variant="default" leftSection={<IconSettings size={16} />} onClick={() => setSettingsOpen(true)}>
              Alert rules
            </Button>
            {isAdmin ? (
              <Button component={Link} to="/groups/create" leftSection={<IconPlus size={16} />}>
                Create group
              </Button>
            ) : null}
          </Group>
        }
      />
      <AlertSettingsModal opened={settingsOpen} onClose={() => setSettingsOpen(false)} canEdit={isAdmin} />
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
