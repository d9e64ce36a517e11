import type { TTwoFactorConfirm, TTwoFactorSetup, TTwoFactorStatus } from "@app/core";
import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Group,
  Image,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { PageLoader } from "../../../ui/AppLoader";
import { IconAlert } from "../../../ui/icons";
import { RecoveryCodes } from "../../../ui/RecoveryCodes";
import { useRefreshPageData } from "../../session/hooks";
import { disable, enable, regenerateRecoveryCodes, startSetup, twoFactorKey, twoFactorStatus } from "../api";

/**
 * The user's two-factor sign-in: set up (QR code and secret, confirmed by a code), or manage it once on.
 * `passkeys` (the page gives the passkeys section) is offered beside the app while the company requires a
 * second factor and the app is off: a passkey meets the requirement too, so a member may choose either.
 */
export function TwoFactorSettings({ passkeys }: { passkeys?: ReactNode }) {
  const status = useQuery({ queryKey: twoFactorKey, queryFn: twoFactorStatus });
  const [codes, setCodes] = useState<string[] | null>(null);
  if (status.isPending) return <PageLoader />;
  if (status.isError) return <Alert color="red">{errorMessage(status.error)}</Alert>;
  return (
    <Stack gap="lg" maw={640}>
      {status.data.setupRequired ? (
        <Alert color="orange" icon={<IconAlert />} title="Your company requires two-factor sign-in">
          Set it up to continue: until then, this is the only page you can use.
        </Alert>
      ) : null}
      {codes ? <RecoveryCodes codes={codes} /> : null}
      {status.data.enabled ? (
        <ManageTwoFactor status={status.data} onCodes={setCodes} />
      ) : (
        <SetUpTwoFactor onCodes={setCodes} />
      )}
      {passkeys && status.data.companyRequires && !status.data.enabled ? (
        <Card>
          <Stack gap="md">
            <Title order={3}>Or use a passkey</Title>
            <Text size="sm" c="dimmed">
              A passkey (your fingerprint, face or device PIN) also meets your company's requirement.
            </Text>
            {passkeys}
          </Stack>
        </Card>
      ) : null}
      {!status.data.enabled && status.data.recoveryCodesLeft > 0 ? (
        <PasskeyRecoveryCodes left={status.data.recoveryCodesLeft} onCodes={setCodes} />
      ) : null}
    </Stack>
  );
}

function SetUpTwoFactor({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const queryClient = useQueryClient();
  const refreshPageData = useRefreshPageData();
  const [secret, setSecret] = useState<TTwoFactorSetup | null>(null);
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const start = useMutation({
    mutationFn: startSetup,
    onSuccess: setSecret,
    onError: (error) => setErrors({ general: errorMessage(error) }),
  });
  const confirm = useMutation({
    mutationFn: enable,
    onSuccess: async (result) => {
      onCodes(result.recoveryCodes);
      await queryClient.invalidateQueries({ queryKey: twoFactorKey });
      await refreshPageData();
    },
    onError: (error) => setErrors(fieldErrors(error) ?? { general: errorMessage(error) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    confirm.mutate(code.trim());
  };

  return (
    <Card>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={3}>Authenticator app</Title>
          <Badge color="gray">Off</Badge>
        </Group>
        <Text size="sm" c="dimmed">
          After your password, signing in will ask for a 6-digit code from an authenticator app on your phone (Google
          Authenticator, 1Password, Microsoft Authenticator…).
        </Text>
        {errors.general ? <Alert color="red">{errors.general}</Alert> : null}
        {secret ? (
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              <Text size="sm">1. Scan this QR code with the app, or type the key below into it.</Text>
              <Image src={secret.qr} alt="QR code for your authenticator app" w={200} h={200} fit="contain" />
              <Stack gap={4}>
                <Text size="sm" fw={600}>
                  Key (shown only now)
                </Text>
                <Code data-testid="two-factor-secret" fz="sm" style={{ wordBreak: "break-all" }}>
                  {secret.secret}
                </Code>
              </Stack>
              <TextInput
                label="2. Enter the 6-digit code the app shows"
                autoComplete="one-time-code"
                inputMode="numeric"
                value={code}
                onChange={(event) => setCode(event.currentTarget.value)}
                error={errors.code}
                maw={360}
              />
              <Group>
                <Button type="submit" loading={confirm.isPending}>
                  Turn on two-factor sign-in
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Group>
            <Button onClick={() => start.mutate()} loading={start.isPending}>
              Set up an authenticator app
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/** A passkey-only user's recovery codes (made with their first passkey): how many are left, and new ones. */
function PasskeyRecoveryCodes({ left, onCodes }: { left: number; onCodes: (codes: string[]) => void }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  return (
    <Card>
      <Stack gap="md">
        <Title order={3}>Recovery codes for your passkeys</Title>
        <Text size="sm" c="dimmed">
          If you lose your passkeys, a recovery code signs you in once. Recovery codes left: <strong>{left}</strong>.
        </Text>
        {asking ? (
          <ConfirmAgain
            label="Make new recovery codes"
            run={async (body) => {
              onCodes((await regenerateRecoveryCodes(body)).recoveryCodes);
              setAsking(false);
              await queryClient.invalidateQueries({ queryKey: twoFactorKey });
            }}
            onCancel={() => setAsking(false)}
          />
        ) : (
          <Group gap="sm">
            <Button variant="default" onClick={() => setAsking(true)}>
              New recovery codes
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function ManageTwoFactor({ status, onCodes }: { status: TTwoFactorStatus; onCodes: (codes: string[] | null) => void }) {
  const queryClient = useQueryClient();
  const [action, setAction] = useState<"disable" | "codes" | null>(null);
  const done = async () => {
    setAction(null);
    await queryClient.invalidateQueries({ queryKey: twoFactorKey });
  };
  return (
    <Card>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={3}>Authenticator app</Title>
          <Badge color="teal">On</Badge>
        </Group>
        <Text size="sm" c="dimmed">
          Signing in asks for a code from your authenticator app after your password. Recovery codes left:{" "}
          <strong>{status.recoveryCodesLeft}</strong>.
        </Text>
        {action === null ? (
          <Group gap="sm">
            <Button variant="default" onClick={() => setAction("codes")}>
              New recovery codes
            </Button>
            {status.companyRequires ? null : (
              <Button variant="default" color="red" onClick={() => setAction("disable")}>
                Turn off
              </Button>
            )}
          </Group>
        ) : (
          <ConfirmAgain
            label={action === "disable" ? "Turn off two-factor sign-in" : "Make new recovery codes"}
            run={async (body) => {
              if (action === "disable") {
                await disable(body);
                onCodes(null);
              } else {
                onCodes((await regenerateRecoveryCodes(body)).recoveryCodes);
              }
              await done();
            }}
            onCancel={() => setAction(null)}
          />
        )}
        {status.companyRequires ? (
          <Text size="sm" c="dimmed">
            Your company requires two-factor sign-in, so it cannot be turned off.
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

/** Turning off and new recovery codes ask for the password or a current code again. */
function ConfirmAgain({
  label,
  run,
  onCancel,
}: {
  label: string;
  run: (body: TTwoFactorConfirm) => Promise<void>;
  onCancel: () => void;
}) {
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useMutation({
    mutationFn: run,
    onError: (error) => setErrors(fieldErrors(error) ?? { general: errorMessage(error) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    mutation.mutate(code.trim() ? { code: code.trim() } : { password });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">Confirm it is you: your password, or a current code from your app.</Text>
        {errors.general ? <Alert color="red">{errors.general}</Alert> : null}
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={errors.password}
          maw={360}
        />
        <TextInput
          label="Or a code"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          error={errors.code}
          maw={360}
        />
        <Group gap="sm">
          <Button type="submit" loading={mutation.isPending}>
            {label}
          </Button>
          <Button variant="subtle" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
