import { ZLogin } from "@app/core";
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { zodFieldErrors } from "../../../lib/form-errors";
import { IconAlert } from "../../../ui/icons";
import { PasskeySignInButton } from "../../passkeys";
import { login } from "../api";
import { useSignIn } from "../use-sign-in";
import { AuthCard } from "./AuthCard";
import { SocialLogIn, SocialSignInError } from "./SocialButtons";

/** Email and password sign-in. */
export function LoginForm() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const { errors, setErrors, send, signedIn, busy } = useSignIn(login);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZLogin.safeParse({ email, password });
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    send(parsed.data);
  };

  return (
    <AuthCard title="Welcome back" subtitle="Log in to your reporting workspace.">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <SocialSignInError />
          {errors.general ? (
            <Alert color="red" icon={<IconAlert />} title="Could not log in">
              {errors.general}
            </Alert>
          ) : null}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@agency.com"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={errors.email}
            required
            data-autofocus
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={errors.password}
            required
          />
          <Button type="submit" size="md" fullWidth mt="xs" loading={busy}>
            Log in
          </Button>
          <PasskeySignInButton
            fullWidth
            size="md"
            onVerified={signedIn}
            onError={(message) => setErrors({ general: message })}
          />
          <SocialLogIn onError={(message) => setErrors({ general: message })} />
        </Stack>
      </form>
      <Text size="sm" c="dimmed" ta="center">
        Don't have an account?{" "}
        <Anchor component={Link} to="/register" fw={600}>
          Register
        </Anchor>
      </Text>
    </AuthCard>
  );
}
