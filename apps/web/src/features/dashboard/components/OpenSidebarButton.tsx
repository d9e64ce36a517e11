import { ActionIcon, Tooltip } from "@mantine/core";

function IconSidebar({ size = 18 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M9 4v16" />
    </svg>
  );
}

/** Members only (public viewers have no sidebar), so the tooltip's positioning code loads with it. */
export function OpenSidebarButton({ onClick }: { onClick: () => void }) {
  return (
    <Tooltip label="Open sidebar">
      <ActionIcon variant="default" size="lg" onClick={onClick} aria-label="Open sidebar">
        <IconSidebar />
      </ActionIcon>
    </Tooltip>
  );
}
