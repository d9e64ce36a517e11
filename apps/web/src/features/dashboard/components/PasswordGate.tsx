import { Button, Center, Paper, PasswordInput, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { type FormEvent, useState } from "react";
import { useI18n } from "../../../lib/i18n";
import { IconLock } from "../../../ui/icons";

interface Props {
  /** The message of the server's 422, once a password was tried. */
  error: string | null;
  pending: boolean;
  /** The agency's site title (white label): who the report comes from, never the product's name. */
  siteTitle: string | null;
  onSubmit: (password: string) => void;
}

/** docs/product.md §4/§6: a password-protected dashboard asks for its password before anything is shown. */
export function PasswordGate({ error, pending, siteTitle, onSubmit }: Props) {
  const { t } = useI18n();
  const [password, setPassword] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== "") onSubmit(password);
  };
  return (
    <Center mih="100vh" p="md" bg="gray.0" style={{ margin: "calc(var(--mantine-spacing-md) * -1)" }}>
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={400}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <ThemeIcon size={44} radius="xl" variant="light">
              <IconLock size={22} />
            </ThemeIcon>
            <div>
              {siteTitle && (
                <Text c="dimmed" fz="xs" fw={600} tt="uppercase" mb={4} data-testid="password-site-title">
                  {siteTitle}
                </Text>
              )}
              <Title order={1} fz="h3">
                {t("password.title")}
              </Title>
              <Text c="dimmed" fz="sm" mt={4}>
                {t("password.intro")}
              </Text>
            </div>
            <PasswordInput
              label={t("password.label")}
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={error ?? undefined}
              autoComplete="current-password"
              data-autofocus
              autoFocus
            />
            <Button type="submit" loading={pending} disabled={password === ""} fullWidth>
              {t("password.submit")}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
