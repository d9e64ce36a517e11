import type { TUser } from "@app/core";
import { Group, Menu, Text, UnstyledButton } from "@mantine/core";
import { Link } from "react-router";
import { logout } from "../../features/auth";
import { IconChevronDown, IconLogout, IconSettings, IconUser } from "../../ui/icons";
import { UserAvatar } from "../../ui/UserAvatar";

/** Header menu of the signed-in user: profile and log out. */
export function UserMenu({ user }: { user: TUser }) {
  return (
    <Menu position="bottom-end" width={240} shadow="md" radius="md">
      <Menu.Target>
        <UnstyledButton aria-label="User menu" px={6} py={4} style={{ borderRadius: "var(--mantine-radius-xl)" }}>
          <Group gap={8} wrap="nowrap">
            <UserAvatar user={user} size={32} />
            <Text size="sm" fw={500} visibleFrom="sm" maw={160} truncate>
              {user.name}
            </Text>
            <IconChevronDown size={14} color="var(--mantine-color-gray-6)" />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="dark" truncate>
            {user.name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {user.email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to={`/users/${user.id}`} leftSection={<IconUser size={16} />}>
          Profile
        </Menu.Item>
        {user.roleName === "admin" ? (
          <Menu.Item component={Link} to="/company/settings" leftSection={<IconSettings size={16} />}>
            Company Settings
          </Menu.Item>
        ) : null}
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
          Log out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
