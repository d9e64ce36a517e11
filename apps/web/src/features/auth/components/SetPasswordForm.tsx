import { ZSetPassword } from "@app/core";
import { Alert, Button, PasswordInput, Stack } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { zodFieldErrors } from "../../../lib/form-errors";
import { IconAlert } from "../../../ui/icons";
import { goTo, setPassword } from "../api";
import { AuthCard } from "./AuthCard";

/** An invited user chooses a password and is signed in (docs/product.md §6: team members are invited). */
export function SetPasswordForm({ token }: { token: string }) {
  const [password, setPasswordValue] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [redirecting, setRedirecting] = useState(false);

  const mutation = useMutation({
    mutationFn: setPassword,
    onSuccess: (result) => {
      setRedirecting(true);
      goTo(result.data.redirect);
    },
    onError: (error) => {
      const fields = fieldErrors(error);
      if (!fields) return setErrors({ general: errorMessage(error) });
      // A token problem is not a field the person can fix: say it above the form.
      setErrors(fields.token ? { ...fields, general: fields.general ?? fields.token } : fields);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZSetPassword.safeParse({ token, password, password_confirmation: confirmation });
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    mutation.mutate(parsed.data);
  };

  return (
    <AuthCard
      title="Set your password"
      subtitle="You have been invited to your team's reporting workspace. Choose a password to join."
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {errors.general ? (
            <Alert color="red" icon={<IconAlert />}>
              {errors.general}
            </Alert>
          ) : null}
          <PasswordInput
            label="Password"
            description="At least 8 characters"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPasswordValue(event.currentTarget.value)}
            error={errors.password}
            required
            data-autofocus
          />
          <PasswordInput
            label="Confirm password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.currentTarget.value)}
            error={errors.password_confirmation}
            required
          />
          <Button type="submit" size="md" fullWidth mt="xs" loading={mutation.isPending || redirecting}>
            Set password
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
