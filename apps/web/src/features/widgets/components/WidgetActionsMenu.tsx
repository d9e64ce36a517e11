import { ActionIcon, Menu } from "@mantine/core";
import type { IconProps } from "../../../ui/icons";
import { IconCopy, IconPencil, IconTrash } from "../../../ui/icons";

function IconDots({ size = 16 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
      <circle cx="5" cy="12" r="1.8" />
      <circle cx="12" cy="12" r="1.8" />
      <circle cx="19" cy="12" r="1.8" />
    </svg>
  );
}

interface Props {
  onEdit: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
}

/** Edit, Duplicate and Delete of one widget. */
export function WidgetActionsMenu({ onEdit, onDuplicate, onDelete }: Props) {
  return (
    <Menu position="bottom-end" shadow="md" width={180} withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="md" aria-label="Widget menu" className="dash-card-control">
          <IconDots size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={15} />} onClick={onEdit}>
          Edit
        </Menu.Item>
        <Menu.Item leftSection={<IconCopy size={15} />} onClick={onDuplicate}>
          Duplicate
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconTrash size={15} />} onClick={onDelete}>
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
