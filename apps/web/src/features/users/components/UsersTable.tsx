import type { TUser } from "@app/core";
import { ActionIcon, Badge, Card, Group, Table, Text, Tooltip, VisuallyHidden } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { Link } from "react-router";
import { errorMessage } from "../../../lib/api";
import { IconPencil, IconTrash } from "../../../ui/icons";
import { useModals } from "../../../ui/modals";
import { SelectInput } from "../../../ui/SelectInput";
import { UserAvatar } from "../../../ui/UserAvatar";
import { useDeleteUser, useUpdateUser } from "../hooks";
import { ROLE_OPTIONS, roleLabel } from "../roles";

/** Team members with their role and invitation status; admins change roles and remove members here. */
export function UsersTable({ users, currentUserId }: { users: TUser[]; currentUserId: string }) {
  const modals = useModals();
  const updateUser = useUpdateUser();
  const deleteUser = useDeleteUser();

  const changeRole = (user: TUser, roleName: string | null) => {
    if (!roleName || roleName === user.roleName || (roleName !== "admin" && roleName !== "user")) return;
    updateUser.mutate(
      { id: user.id, body: { roleName } },
      {
        onSuccess: (saved) =>
          notifications.show({
            color: "teal",
            title: "Role updated",
            message: `${saved.name} is now ${saved.roleName === "admin" ? "an admin" : "a user"}.`,
          }),
        onError: (error) =>
          notifications.show({ color: "red", title: "Could not change role", message: errorMessage(error) }),
      },
    );
  };

  const remove = async (user: TUser) => {
    const confirmed = await modals.question({
      message: `${user.name} (${user.email}) will lose access to your workspace.`,
      submitLabel: "Delete",
      danger: true,
    });
    if (!confirmed) return;
    deleteUser.mutate(user.id, {
      onSuccess: () =>
        notifications.show({ color: "teal", title: "User deleted", message: `${user.name} was removed.` }),
      onError: (error) => notifications.show({ color: "red", title: "Could not delete", message: errorMessage(error) }),
    });
  };

  return (
    <Card p={0}>
      {/* Phones drop the Email and Status columns (both move under the name), so role and actions stay on screen. */}
      <Table.ScrollContainer minWidth={340}>
        <Table highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th visibleFrom="sm">Email</Table.Th>
              <Table.Th w={{ base: 104, sm: 150 }}>Role</Table.Th>
              <Table.Th w={110} visibleFrom="sm">
                Status
              </Table.Th>
              <Table.Th w={{ base: 64, sm: 96 }}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.map((user) => {
              const isSelf = user.id === currentUserId;
              return (
                <Table.Tr key={user.id}>
                  <Table.Td>
                    <Group gap="sm" wrap="nowrap">
                      <UserAvatar user={user} size={32} visibleFrom="xs" />
                      <div style={{ minWidth: 0 }}>
                        <Text size="sm" fw={500}>
                          {user.name}
                          {isSelf ? (
                            <Text span c="dimmed" size="sm">
                              {" "}
                              (you)
                            </Text>
                          ) : null}
                        </Text>
                        <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ overflowWrap: "anywhere" }}>
                          {user.email}
                        </Text>
                        <Group hiddenFrom="sm" mt={4}>
                          <StatusBadge active={user.active} />
                        </Group>
                      </div>
                    </Group>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm" c="dimmed">
                      {user.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {isSelf ? (
                      <Badge color={user.roleName === "admin" ? "brand" : "gray"}>{roleLabel(user.roleName)}</Badge>
                    ) : (
                      <SelectInput
                        aria-label={`Role of ${user.name}`}
                        size="xs"
                        searchable={false}
                        data={ROLE_OPTIONS}
                        value={user.roleName}
                        onChange={(value) => changeRole(user, value)}
                        disabled={updateUser.isPending && updateUser.variables?.id === user.id}
                      />
                    )}
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <StatusBadge active={user.active} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label="Edit profile">
                        <ActionIcon
                          component={Link}
                          to={`/users/${user.id}`}
                          variant="subtle"
                          color="gray"
                          aria-label={`Edit ${user.name}`}
                        >
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                      {isSelf ? null : (
                        <Tooltip label="Delete user">
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Delete ${user.name}`}
                            onClick={() => void remove(user)}
                            loading={deleteUser.isPending && deleteUser.variables === user.id}
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

function StatusBadge({ active }: { active: boolean }) {
  return active ? <Badge color="teal">Active</Badge> : <Badge color="yellow">Invited</Badge>;
}
