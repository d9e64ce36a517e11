import { ROLE_USER, ZUserCreate } from "@app/core";
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type FormEvent, useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { zodFieldErrors } from "../../../lib/form-errors";
import { IconAlert } from "../../../ui/icons";
import { SelectInput } from "../../../ui/SelectInput";
import { useInviteUser } from "../hooks";
import { ROLE_OPTIONS } from "../roles";

/** Invites a team member by e-mail (POST /api/users). */
export function InviteUserModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [roleName, setRoleName] = useState<string>(ROLE_USER);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useInviteUser();

  const close = () => {
    setName("");
    setEmail("");
    setRoleName(ROLE_USER);
    setErrors({});
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZUserCreate.safeParse({ name, email, roleName });
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    mutation.mutate(parsed.data, {
      onSuccess: (user) => {
        notifications.show({
          color: "teal",
          title: "Invitation sent",
          message: `${user.name} will get an e-mail to join your team.`,
        });
        close();
      },
      onError: (error) => setErrors(fieldErrors(error) ?? { general: errorMessage(error) }),
    });
  };

  return (
    <Modal opened={opened} onClose={close} title="Invite user" size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            They will receive an e-mail with a link to set their password and join your workspace.
          </Text>
          {errors.general ? (
            <Alert color="red" icon={<IconAlert />}>
              {errors.general}
            </Alert>
          ) : null}
          <TextInput
            label="Name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
            required
            data-autofocus
          />
          <TextInput
            label="Email"
            type="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={errors.email}
            required
          />
          <SelectInput
            label="Role"
            data={ROLE_OPTIONS}
            searchable={false}
            value={roleName}
            onChange={(value) => setRoleName(value ?? ROLE_USER)}
            error={errors.roleName}
            description="Admins manage users, company settings and billing."
            required
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
