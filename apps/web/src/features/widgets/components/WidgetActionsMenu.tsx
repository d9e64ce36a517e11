import { ActionIcon, Menu } from "@mantine/core";
import type { IconProps } from "../../../ui/icons";
import { IconCopy, IconPencil, IconTrash } from "../../../ui/icons";

function IconBell({ size = 16 }: IconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

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
  /** "Alert me when…" (docs/decisions.md, "Alerts on any widget metric"); absent for widgets without metrics. */
  onAlerts?: () => void;
}

/** Edit, Duplicate, Alert me when… and Delete of one widget. */
export function WidgetActionsMenu({ onEdit, onDuplicate, onDelete, onAlerts }: Props) {
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
        {onAlerts ? (
          <Menu.Item leftSection={<IconBell size={15} />} onClick={onAlerts}>
            Alert me when…
          </Menu.Item>
        ) : null}
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconTrash size={15} />} onClick={onDelete}>
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
