import { Button, Center, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { Link } from "react-router";
import { useI18n } from "../../../lib/i18n";
import { IconChart } from "../../../ui/icons";

/** 404 (or another failure) of the dashboard request. */
export function DashboardUnavailable({
  notFound,
  message,
  signedIn,
  onRetry,
}: {
  notFound: boolean;
  message: string;
  signedIn: boolean;
  onRetry: () => void;
}) {
  const { t } = useI18n();
  return (
    <Center mih="100vh" p="md" style={{ margin: "calc(var(--mantine-spacing-md) * -1)" }} bg="gray.0">
      <Stack align="center" gap="md" ta="center" maw={440}>
        <ThemeIcon size={52} radius="xl" variant="light" color={notFound ? "gray" : "red"}>
          <IconChart size={26} />
        </ThemeIcon>
        <Title order={1} fz="h2">
          {notFound ? t("dashboard.notFound") : t("dashboard.couldNotLoad")}
        </Title>
        <Text c="dimmed">{notFound ? t("dashboard.notFoundHelp") : message}</Text>
        {notFound ? (
          signedIn ? (
            <Button component={Link} to="/dashboards">
              {t("dashboard.backToDashboards")}
            </Button>
          ) : null
        ) : (
          <Button onClick={onRetry}>{t("dashboard.tryAgain")}</Button>
        )}
      </Stack>
    </Center>
  );
}

/**
 * An embedded view whose link is forged, expired or revoked (403). Nothing to retry and no way in from
 * inside someone else's page: it says so, for whoever looks at the frame.
 */
export function EmbedLinkExpired() {
  const { t } = useI18n();
  return (
    <Center mih="100vh" p="md" style={{ margin: "calc(var(--mantine-spacing-md) * -1)" }} bg="gray.0">
      <Stack align="center" gap="md" ta="center" maw={440} data-testid="embed-expired">
        <ThemeIcon size={52} radius="xl" variant="light" color="gray">
          <IconChart size={26} />
        </ThemeIcon>
        <Title order={1} fz="h2">
          {t("dashboard.embedExpired")}
        </Title>
        <Text c="dimmed">{t("dashboard.askForNewLink")}</Text>
      </Stack>
    </Center>
  );
}

/**
 * A shared dashboard whose owner has no subscription any more (402): the viewer is told why, in the
 * server's words, with nothing to retry.
 */
export function DashboardNotServed({ message }: { message: string }) {
  const { t } = useI18n();
  return (
    <Center mih="100vh" p="md" style={{ margin: "calc(var(--mantine-spacing-md) * -1)" }} bg="gray.0">
      <Stack align="center" gap="md" ta="center" maw={440} data-testid="dashboard-not-served">
        <ThemeIcon size={52} radius="xl" variant="light" color="gray">
          <IconChart size={26} />
        </ThemeIcon>
        <Title order={1} fz="h2">
          {t("dashboard.notServed")}
        </Title>
        <Text c="dimmed">{message}</Text>
      </Stack>
    </Center>
  );
}
