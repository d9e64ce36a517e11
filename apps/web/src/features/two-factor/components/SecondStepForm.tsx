import { Alert, Anchor, Button, Stack, Text, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { IconAlert } from "../../../ui/icons";
import { AuthCard, useSignIn } from "../../auth";
import { PasskeySignInButton } from "../../passkeys";
import { secondStep, secondStepPasskey, secondStepPasskeyOptions } from "../api";

/** /login/two-factor: the code from the authenticator app, a recovery code, or one of the user's passkeys. */
export function SecondStepForm() {
  const [code, setCode] = useState("");
  const { errors, setErrors, send, signedIn, busy } = useSignIn(secondStep);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setErrors({ code: "The code field is required." });
      return;
    }
    send(code.trim());
  };

  return (
    <AuthCard
      title="Two-factor sign-in"
      subtitle="Enter the 6-digit code from your authenticator app or one of your recovery codes, or use your passkey."
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {errors.general ? (
            <Alert color="red" icon={<IconAlert />} title="Could not sign in">
              {errors.general}
            </Alert>
          ) : null}
          <TextInput
            label="Code"
            autoComplete="one-time-code"
            inputMode="text"
            placeholder="123456"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={errors.code}
            required
            data-autofocus
          />
          <Button type="submit" size="md" fullWidth mt="xs" loading={busy}>
            Verify and sign in
          </Button>
          <PasskeySignInButton
            fullWidth
            size="md"
            label="Use a passkey"
            getOptions={secondStepPasskeyOptions}
            verify={secondStepPasskey}
            onVerified={signedIn}
            onError={(message) => setErrors({ general: message })}
          />
        </Stack>
      </form>
      <Text size="sm" c="dimmed" ta="center">
        Lost your phone and your recovery codes? Ask your company's admin to have your two-factor sign-in reset.{" "}
        <Anchor component={Link} to="/login" fw={600}>
          Back to log in
        </Anchor>
      </Text>
    </AuthCard>
  );
}
