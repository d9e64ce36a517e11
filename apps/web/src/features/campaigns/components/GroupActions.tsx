import type { TCampaign } from "@app/core";
import { ActionIcon, Menu } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { useNavigate } from "react-router";
import { errorMessage } from "../../../lib/api";
import { IconDots, IconSettings, IconTrash } from "../../../ui/icons";
import { useModals } from "../../../ui/modals";
import { useDeleteCampaign } from "../hooks";
import { countLabel } from "../view-model";
import { GroupSettingsModal } from "./GroupSettingsModal";

/** The admin's menu of a group: its settings (name, own alert rules) and deleting it. */
export function GroupActions({ campaign }: { campaign: TCampaign }) {
  const [settingsOpen, setSettingsOpen] = useState(false);
  const modals = useModals();
  const navigate = useNavigate();
  const remove = useDeleteCampaign(campaign.id);

  const confirmDelete = async () => {
    const confirmed = await modals.question({
      title: `Delete ${campaign.name}?`,
      message: `Its ${countLabel(campaign.domain_count, "domain", "domains")} with their stored metrics and alerts are deleted too. This cannot be undone.`,
      submitLabel: "Delete group",
      danger: true,
    });
    if (!confirmed) return;
    remove.mutate(undefined, {
      onSuccess: () => {
        notifications.show({ color: "teal", title: "Group deleted", message: campaign.name });
        navigate("/groups");
      },
      onError: (error) => notifications.show({ color: "red", title: "Could not delete", message: errorMessage(error) }),
    });
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="default" size="lg" aria-label="Group actions" loading={remove.isPending}>
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconSettings size={14} />} onClick={() => setSettingsOpen(true)}>
            Settings and alert rules
          </Menu.Item>
          <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => void confirmDelete()}>
            Delete group
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <GroupSettingsModal campaign={campaign} opened={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </>
  );
}
