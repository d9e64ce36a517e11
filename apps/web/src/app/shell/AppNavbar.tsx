import type { TUser } from "@app/core";
import { AppShell, Box, Button, Group, NavLink, ScrollArea, Stack, Text, UnstyledButton } from "@mantine/core";
import { Link, useLocation } from "react-router";
import { logout } from "../../features/auth";
import { IconLogout } from "../../ui/icons";
import { UserAvatar } from "../../ui/UserAvatar";
import { NAV_SECTIONS } from "./nav-items";

function isActive(pathname: string, to: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** Left navigation of the signed-in app; collapses behind the burger on phones. */
export function AppNavbar({ user }: { user: TUser }) {
  const { pathname } = useLocation();
  const isAdmin = user.roleName === "admin";

  return (
    <>
      <AppShell.Section grow component={ScrollArea} px="sm" py="md">
        <Stack gap="lg" component="nav" aria-label="Main">
          {NAV_SECTIONS.map((section) => {
            const items = section.items.filter((item) => isAdmin || !item.adminOnly);
            if (items.length === 0) return null;
            return (
              <Stack key={section.label} gap={2}>
                <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" mb={4} style={{ letterSpacing: 0.6 }}>
                  {section.label}
                </Text>
                {items.map((item) => (
                  <NavLink
                    key={item.to}
                    component={Link}
                    to={item.to}
                    label={item.label}
                    leftSection={item.icon}
                    active={isActive(pathname, item.to)}
                    fw={500}
                  />
                ))}
              </Stack>
            );
          })}
        </Stack>
      </AppShell.Section>
      <AppShell.Section p="sm" style={{ borderTop: "1px solid var(--mantine-color-gray-2)" }}>
        <UnstyledButton
          component={Link}
          to={`/users/${user.id}`}
          p="xs"
          w="100%"
          style={{ borderRadius: "var(--mantine-radius-md)", display: "block" }}
          aria-label={`Profile of ${user.name}`}
        >
          <Group gap="sm" wrap="nowrap">
            <UserAvatar user={user} size={36} />
            <Box style={{ minWidth: 0, flex: 1 }}>
              <Text size="sm" fw={600} truncate>
                {user.name}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                {user.email}
              </Text>
            </Box>
          </Group>
        </UnstyledButton>
        <Button
          variant="subtle"
          color="gray"
          fullWidth
          justify="flex-start"
          leftSection={<IconLogout />}
          mt={4}
          onClick={() => void logout()}
        >
          Log out
        </Button>
      </AppShell.Section>
    </>
  );
}
