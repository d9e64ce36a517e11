import type { TDashboardListItem } from "@app/core";
import { ActionIcon, Anchor, Menu } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useNavigate } from "react-router";
import { IconArchive, IconCopy, IconDots, IconRestore, IconTrash } from "../../../ui/icons";
import { useModals } from "../../../ui/modals";
import { useArchiveDashboard, useCloneDashboard, useDeleteDashboard, useRestoreDashboard } from "../hooks";
import { dashboardErrorMessage } from "../limit";

function failed(title: string) {
  return (error: unknown) => notifications.show({ color: "red", title, message: dashboardErrorMessage(error) });
}

/** Clone, archive or restore, and delete (after a question) one dashboard of the list. */
export function DashboardActionsMenu({ dashboard }: { dashboard: TDashboardListItem }) {
  const modals = useModals();
  const navigate = useNavigate();
  const clone = useCloneDashboard();
  const archive = useArchiveDashboard();
  const restore = useRestoreDashboard();
  const remove = useDeleteDashboard();
  const busy = clone.isPending || archive.isPending || restore.isPending || remove.isPending;

  const onClone = () =>
    clone.mutate(dashboard.id, {
      onSuccess: (permalink) =>
        notifications.show({
          color: "teal",
          title: "Dashboard cloned",
          message: (
            <>
              A copy of {dashboard.name} was created.{" "}
              {/* Notifications render outside the router, so the link navigates through the captured function. */}
              <Anchor component="button" size="sm" onClick={() => navigate(`/dashboards/${permalink}`)}>
                Open the copy
              </Anchor>
            </>
          ),
        }),
      onError: failed("Could not clone"),
    });

  const onArchive = () =>
    archive.mutate(dashboard.id, {
      onSuccess: () =>
        notifications.show({
          color: "teal",
          title: "Dashboard archived",
          message: `${dashboard.name} is now under Archived; restore it any time.`,
        }),
      onError: failed("Could not archive"),
    });

  const onRestore = () =>
    restore.mutate(dashboard.id, {
      onSuccess: () =>
        notifications.show({
          color: "teal",
          title: "Dashboard restored",
          message: `${dashboard.name} is active again.`,
        }),
      onError: failed("Could not restore"),
    });

  const onDelete = async () => {
    const confirmed = await modals.question({
      message: `${dashboard.name} and its widgets will be deleted for good. This cannot be undone.`,
      submitLabel: "Delete",
      danger: true,
    });
    if (!confirmed) return;
    remove.mutate(dashboard.id, {
      onSuccess: () =>
        notifications.show({ color: "teal", title: "Dashboard deleted", message: `${dashboard.name} was deleted.` }),
      onError: failed("Could not delete"),
    });
  };

  return (
    <Menu position="bottom-end" shadow="md" width={180} withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${dashboard.name}`} loading={busy}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconCopy size={16} />} onClick={onClone}>
          Clone
        </Menu.Item>
        {dashboard.active ? (
          <Menu.Item leftSection={<IconArchive size={16} />} onClick={onArchive}>
            Archive
          </Menu.Item>
        ) : (
          <Menu.Item leftSection={<IconRestore size={16} />} onClick={onRestore}>
            Restore
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => void onDelete()}>
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
