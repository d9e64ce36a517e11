import type { TPasskey, TPasskeyRemove } from "@app/core";
import { Alert, Button, Divider, Group, Modal, PasswordInput, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type FormEvent, useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconAlert, IconLock } from "../../../ui/icons";
import { ownAssertionOptions } from "../api";
import { ceremonyErrorMessage, getAssertion } from "../browser";
import { useRemovePasskey } from "../hooks";

/**
 * Removing a passkey asks again who is there: the account's password, or (always offered, and the only
 * way for an account without a password) one of the user's passkeys.
 */
export function PasskeyRemoveModal({
  passkey,
  hasPassword,
  onClose,
}: {
  passkey: TPasskey | null;
  hasPassword: boolean;
  onClose: () => void;
}) {
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [asking, setAsking] = useState(false);
  const mutation = useRemovePasskey();

  const close = () => {
    setPassword("");
    setErrors({});
    onClose();
  };

  const remove = (body: TPasskeyRemove) => {
    if (!passkey) return;
    mutation.mutate(
      { id: passkey.id, body },
      {
        onSuccess: () => {
          notifications.show({
            color: "teal",
            title: "Passkey removed",
            message: `"${passkey.name}" can no longer log in.`,
          });
          close();
        },
        onError: (error) => {
          const fields = fieldErrors(error);
          setErrors(fields?.passkey ? { general: fields.passkey } : (fields ?? { general: errorMessage(error) }));
        },
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setErrors({ password: "Enter your password to remove the passkey." });
      return;
    }
    setErrors({});
    remove({ password });
  };

  const withPasskey = async () => {
    setErrors({});
    setAsking(true);
    try {
      remove({ response: await getAssertion(await ownAssertionOptions()) });
    } catch (error) {
      setErrors({ general: ceremonyErrorMessage(error) ?? errorMessage(error) });
    } finally {
      setAsking(false);
    }
  };

  return (
    <Modal opened={passkey !== null} onClose={close} title="Remove passkey" size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm">"{passkey?.name}" will no longer log you in. We will e-mail you that it was removed.</Text>
          {errors.general ? (
            <Alert color="red" icon={<IconAlert />}>
              {errors.general}
            </Alert>
          ) : null}
          {hasPassword ? (
            <>
              <PasswordInput
                label="Your password"
                autoComplete="current-password"
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
                error={errors.password}
                data-autofocus
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={close}>
                  Cancel
                </Button>
                <Button type="submit" color="red" loading={mutation.isPending && !asking}>
                  Remove passkey
                </Button>
              </Group>
              <Divider label="or" labelPosition="center" />
            </>
          ) : null}
          <Button
            type="button"
            variant={hasPassword ? "default" : "filled"}
            color={hasPassword ? undefined : "red"}
            leftSection={<IconLock />}
            loading={asking}
            onClick={() => void withPasskey()}
          >
            Confirm with a passkey and remove
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
