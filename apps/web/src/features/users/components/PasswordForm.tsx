import { type TUser, ZUserUpdate } from "@app/core";
import { Alert, Group, PasswordInput, SimpleGrid, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type FormEvent, useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { zodFieldErrors } from "../../../lib/form-errors";
import { FeedbackButton, useFeedback } from "../../../ui/FeedbackButton";
import { useUpdateUser } from "../hooks";

/** Changes the user's own password. */
export function PasswordForm({ user }: { user: TUser }) {
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { feedback, flash } = useFeedback();
  const mutation = useUpdateUser();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZUserUpdate.pick({ password: true }).required().safeParse({ password });
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    if (password !== confirmation) {
      setErrors({ password_confirmation: "The password confirmation does not match." });
      return;
    }
    setErrors({});
    mutation.mutate(
      { id: user.id, body: parsed.data },
      {
        onSuccess: () => {
          setPassword("");
          setConfirmation("");
          flash("done");
          notifications.show({ color: "teal", title: "Password changed", message: "Use it the next time you log in." });
        },
        onError: (error) => {
          flash("failed");
          setErrors(fieldErrors(error) ?? { general: errorMessage(error) });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      {/* Lets password managers pair the new password with the account. */}
      <input type="text" name="username" autoComplete="username" value={user.email} readOnly hidden />
      <Stack gap="md">
        {errors.general ? <Alert color="red">{errors.general}</Alert> : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <PasswordInput
            label="New password"
            description="At least 8 characters"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={errors.password}
          />
          <PasswordInput
            label="Confirm new password"
            description="Type it once more"
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.currentTarget.value)}
            error={errors.password_confirmation}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <FeedbackButton type="submit" feedback={feedback} loading={mutation.isPending} disabled={!password} miw={160}>
            Change password
          </FeedbackButton>
        </Group>
      </Stack>
    </form>
  );
}
