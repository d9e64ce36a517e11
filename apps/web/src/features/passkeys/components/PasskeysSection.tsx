import type { TPasskey, TUser } from "@app/core";
import { ActionIcon, Alert, Button, Group, Paper, Stack, Text, Tooltip } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { PageLoader } from "../../../ui/AppLoader";
import { IconPencil, IconPlus, IconTrash } from "../../../ui/icons";
import { RecoveryCodes } from "../../../ui/RecoveryCodes";
import { ceremonyErrorMessage } from "../browser";
import { useAddPasskey, usePasskeys, useRenamePasskey } from "../hooks";
import { PasskeyNameModal } from "./PasskeyNameModal";
import { PasskeyRemoveModal } from "./PasskeyRemoveModal";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

function when(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/** Server or browser errors of a passkey form, per field (`general` for the rest). */
function formErrors(error: unknown): Record<string, string> {
  const browser = ceremonyErrorMessage(error);
  if (browser) return { general: browser };
  const fields = fieldErrors(error);
  if (fields?.passkey) return { general: fields.passkey };
  return fields ?? { general: errorMessage(error) };
}

function PasskeyRow({
  passkey,
  onRename,
  onRemove,
}: {
  passkey: TPasskey;
  onRename: () => void;
  onRemove: () => void;
}) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid="passkey-row">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={600} truncate>
            {passkey.name}
          </Text>
          <Text size="xs" c="dimmed">
            Added {when(passkey.createdAt)} ·{" "}
            {passkey.lastUsedAt ? `Last used ${when(passkey.lastUsedAt)}` : "Not used yet"}
          </Text>
        </Stack>
        <Group gap={4} wrap="nowrap">
          <Tooltip label="Rename">
            <ActionIcon variant="subtle" aria-label={`Rename ${passkey.name}`} onClick={onRename}>
              <IconPencil />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Remove">
            <ActionIcon variant="subtle" color="red" aria-label={`Remove ${passkey.name}`} onClick={onRemove}>
              <IconTrash />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </Paper>
  );
}

/** The profile's passkeys: listed, added (named, then the browser's prompt), renamed and removed. */
export function PasskeysSection({ user }: { user: TUser }) {
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const rename = useRenamePasskey();
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<TPasskey | null>(null);
  const [removing, setRemoving] = useState<TPasskey | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  const closeModals = () => {
    setAdding(false);
    setRenaming(null);
    setErrors({});
  };

  const submitAdd = (name: string) =>
    add.mutate(name, {
      onSuccess: (passkey) => {
        notifications.show({
          color: "teal",
          title: "Passkey added",
          message: `Log in with "${passkey.name}" next time.`,
        });
        // The first passkey of a user without an authenticator app: its recovery codes, shown once.
        if (passkey.recoveryCodes) setRecoveryCodes(passkey.recoveryCodes);
        closeModals();
      },
      onError: (error) => setErrors(formErrors(error)),
    });

  const submitRename = (name: string) => {
    if (!renaming) return;
    rename.mutate(
      { id: renaming.id, name },
      { onSuccess: closeModals, onError: (error) => setErrors(formErrors(error)) },
    );
  };

  if (passkeys.isPending) return <PageLoader />;
  return (
    <Stack gap="md">
      {passkeys.isError ? <Alert color="red">{errorMessage(passkeys.error)}</Alert> : null}
      {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} /> : null}
      {passkeys.data?.length ? (
        <Stack gap="xs">
          {passkeys.data.map((passkey) => (
            <PasskeyRow
              key={passkey.id}
              passkey={passkey}
              onRename={() => setRenaming(passkey)}
              onRemove={() => setRemoving(passkey)}
            />
          ))}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          No passkeys yet. A passkey logs you in with your fingerprint, face or device PIN instead of your password.
        </Text>
      )}
      <Group justify="flex-end">
        <Button leftSection={<IconPlus />} onClick={() => setAdding(true)}>
          Add a passkey
        </Button>
      </Group>
      {adding ? (
        <PasskeyNameModal
          opened
          title="Add a passkey"
          description="Your browser will then ask you to create the passkey with your device or password manager."
          submitLabel="Continue"
          initialName="Passkey"
          pending={add.isPending}
          errors={errors}
          onSubmit={submitAdd}
          onClose={closeModals}
        />
      ) : null}
      {renaming ? (
        <PasskeyNameModal
          opened
          title="Rename passkey"
          submitLabel="Save"
          initialName={renaming.name}
          pending={rename.isPending}
          errors={errors}
          onSubmit={submitRename}
          onClose={closeModals}
        />
      ) : null}
      <PasskeyRemoveModal passkey={removing} hasPassword={user.active} onClose={() => setRemoving(null)} />
    </Stack>
  );
}
