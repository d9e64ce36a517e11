import { ZPasskeyRename } from "@app/core";
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { zodFieldErrors } from "../../../lib/form-errors";
import { IconAlert } from "../../../ui/icons";

/** Asks for a passkey's name: when adding one (then the browser's prompt) and when renaming one. */
export function PasskeyNameModal({
  opened,
  title,
  description,
  submitLabel,
  initialName,
  pending,
  errors,
  onSubmit,
  onClose,
}: {
  opened: boolean;
  title: string;
  description?: string;
  submitLabel: string;
  initialName: string;
  pending: boolean;
  /** The server's answer, per field (`name`, or `general` for anything else). */
  errors: Record<string, string>;
  onSubmit: (name: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(initialName);
  const [local, setLocal] = useState<Record<string, string>>({});
  const shown = { ...errors, ...local };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZPasskeyRename.safeParse({ name });
    if (!parsed.success) {
      setLocal(zodFieldErrors(parsed.error));
      return;
    }
    setLocal({});
    onSubmit(parsed.data.name);
  };

  return (
    <Modal opened={opened} onClose={onClose} title={title} size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {description ? (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          ) : null}
          {shown.general ? (
            <Alert color="red" icon={<IconAlert />}>
              {shown.general}
            </Alert>
          ) : null}
          <TextInput
            label="Name"
            description="So you can tell your passkeys apart, for example the device or password manager that keeps it."
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={shown.name}
            maxLength={60}
            required
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
