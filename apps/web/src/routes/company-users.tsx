import { Alert, Button } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useCurrentUser } from "../features/session/hooks";
import { InviteUserModal, UsersTable, useUsers } from "../features/users";
import { errorMessage } from "../lib/api";
import { PageLoader } from "../ui/AppLoader";
import { IconPlus } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /company/users (admins only) */
export default function CompanyUsersScreen() {
  const current = useCurrentUser();
  const users = useUsers();
  const [inviting, { open, close }] = useDisclosure(false);

  return (
    <>
      <PageHeader
        title="Users"
        description="Invite your team, choose who is an admin, and remove people who left."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={open}>
            Invite user
          </Button>
        }
      />
      {users.data && current ? (
        <UsersTable users={users.data} currentUserId={current.id} />
      ) : users.isPending ? (
        <PageLoader />
      ) : (
        <Alert color="red">{errorMessage(users.error)}</Alert>
      )}
      <InviteUserModal opened={inviting} onClose={close} />
    </>
  );
}
