import { loginEndDay, loginEndsSoon, type TConnector, type TSource } from "@app/core";
import { ActionIcon, Badge, Box, Button, Card, Divider, Group, Stack, Text, Tooltip } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { Fragment, useState } from "react";
import { errorMessage } from "../../../lib/api";
import { IconAlert, IconPlug, IconTrash } from "../../../ui/icons";
import { useModals } from "../../../ui/modals";
import { connectorName } from "../auth-kinds";
import { useDeleteSource, useOAuthConnect, useReconnectSource } from "../hooks";
import { ConnectorAvatar } from "./ConnectorAvatar";
import { CredentialsConnectAction } from "./CredentialsConnectAction";

interface ConnectedSourcesProps {
  sources: TSource[];
  connectors: TConnector[] | undefined;
  labels: Map<string, string>;
}

const MAX_FILES_SHOWN = 4;

/** What a source holds, in a few words: the files of an upload source, else its properties. */
function SourceDetails({ source, connector }: { source: TSource; connector: TConnector | undefined }) {
  const isUpload = connector?.authKind === "upload";
  const count = source.properties.length;
  if (isUpload) {
    const shown = source.properties.slice(0, MAX_FILES_SHOWN);
    return (
      <Group gap={6} mt={2}>
        <Text size="xs" c="dimmed">
          {count === 1 ? "1 file" : `${count} files`}
        </Text>
        {shown.map((file) => (
          <Badge key={file.value} size="sm" color="gray" variant="outline" tt="none" maw={200}>
            {file.label}
          </Badge>
        ))}
        {count > shown.length ? (
          <Text size="xs" c="dimmed">
            +{count - shown.length} more
          </Text>
        ) : null}
      </Group>
    );
  }
  const parts = [
    source.account && connector ? connector.displayName : null,
    count > 0 ? (count === 1 ? "1 property" : `${count} properties`) : null,
  ].filter(Boolean);
  return parts.length > 0 ? (
    <Text size="xs" c="dimmed">
      {parts.join(" · ")}
    </Text>
  ) : null;
}

function SourceRow({
  source,
  connector,
  label,
}: {
  source: TSource;
  connector: TConnector | undefined;
  label: string;
}) {
  const modals = useModals();
  const remove = useDeleteSource();
  const reconnect = useReconnectSource();
  const displayName = connectorName(connector ? [connector] : undefined, source.name);
  const canReconnect = source.invalid && connector?.available && connector.authKind === "none";
  // A login that ends within the week (banner 130) is reconnected in place before it stops.
  const endsSoon = !source.invalid && loginEndsSoon(source.expiresAt, new Date());
  const canReauthorise = (source.invalid || endsSoon) && connector?.available && connector.authKind === "oauth2";
  // Typed logins are re-authorised by typing a new one (checked with the provider before it replaces the old).
  const canRetype =
    connector?.available === true && ["account+token", "token", "site+key|secret"].includes(connector.authKind);
  const [retyping, setRetyping] = useState(false);
  const oauth = useOAuthConnect();
  const [reauthorising, setReauthorising] = useState(false);
  const reauthorise = async () => {
    setReauthorising(true);
    try {
      // Connectors that ask for an account (AccuRanker) are re-authorised for the source's own account.
      const result = await oauth(source.name, source.id, connector?.oauthAccount ? (source.account ?? "") : null);
      notifications.show(
        result.ok
          ? {
              color: "teal",
              title: endsSoon ? "Source reconnected" : "Source re-authorised",
              message: endsSoon ? `${label} keeps working, with its widgets.` : `${label} works again.`,
            }
          : { color: "red", title: "Not re-authorised", message: result.message ?? "Please try again." },
      );
    } finally {
      setReauthorising(false);
    }
  };

  const confirmRemove = async () => {
    const confirmed = await modals.question({
      message: `${label} will be removed. Widgets that read from it will show 'Data Error' until they use another source.`,
      submitLabel: "Remove",
      danger: true,
    });
    if (!confirmed) return;
    remove.mutate(source, {
      onSuccess: () => notifications.show({ color: "teal", title: "Source removed", message: `${label} was removed.` }),
      onError: (error) => notifications.show({ color: "red", title: "Could not remove", message: errorMessage(error) }),
    });
  };

  return (
    <Stack gap={0}>
      <Group justify="space-between" wrap="nowrap" gap="md" py="sm" px="md" align="center">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <ConnectorAvatar connectorKey={source.name} displayName={displayName} size={36} />
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Group gap={8} wrap="wrap">
              <Text fw={600} size="sm" truncate="end">
                {label}
              </Text>
              {source.invalid ? (
                <Badge color="red" variant="light" size="sm" tt="none" leftSection={<IconAlert size={12} />}>
                  Needs re-authorising
                </Badge>
              ) : null}
              {endsSoon && source.expiresAt ? (
                <Badge color="orange" variant="light" size="sm" tt="none" leftSection={<IconAlert size={12} />}>
                  {`Login ends ${loginEndDay(source.expiresAt)}`}
                </Badge>
              ) : null}
            </Group>
            <SourceDetails source={source} connector={connector} />
            {source.invalid && connector?.authKind === "upload" ? (
              <Text size="xs" c="red.7">
                Upload the file again to refresh this source.
              </Text>
            ) : null}
          </Stack>
        </Group>
        <Group gap={6} wrap="nowrap">
          {canReauthorise ? (
            <Button size="xs" variant="light" loading={reauthorising} onClick={() => void reauthorise()}>
              {endsSoon ? "Reconnect" : "Re-authorise"}
            </Button>
          ) : null}
          {canRetype ? (
            <Button
              size="xs"
              variant={source.invalid ? "light" : "subtle"}
              aria-expanded={retyping}
              onClick={() => setRetyping((open) => !open)}
            >
              {source.invalid ? "Re-authorise" : "Change token"}
            </Button>
          ) : null}
          {canReconnect ? (
            <Button
              size="xs"
              variant="light"
              loading={reconnect.isPending}
              onClick={() =>
                reconnect.mutate(source, {
                  onError: (error) =>
                    notifications.show({ color: "red", title: "Could not reconnect", message: errorMessage(error) }),
                })
              }
            >
              Reconnect
            </Button>
          ) : null}
          <Tooltip label="Remove source">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remove ${label}`}
              loading={remove.isPending}
              onClick={() => void confirmRemove()}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {retyping && connector ? (
        <Box px="md" pb="md" maw={480}>
          <CredentialsConnectAction connector={connector} source={source} onDone={() => setRetyping(false)} />
        </Box>
      ) : null}
    </Stack>
  );
}

/** The company's connected sources, shared by the whole team; invalid ones are flagged. */
export function ConnectedSources({ sources, connectors, labels }: ConnectedSourcesProps) {
  if (sources.length === 0) {
    return (
      <Card padding="lg">
        <Group gap="md" wrap="nowrap">
          <ConnectorPlaceholder />
          <Stack gap={2}>
            <Text fw={600}>No sources connected yet</Text>
            <Text size="sm" c="dimmed">
              Connect Demo data to explore with realistic numbers, or upload a CSV file of your own.
            </Text>
          </Stack>
        </Group>
      </Card>
    );
  }
  return (
    <Card p={0}>
      {sources.map((source, index) => (
        <Fragment key={source.id}>
          {index > 0 ? <Divider /> : null}
          <SourceRow
            source={source}
            connector={connectors?.find((connector) => connector.key === source.name)}
            label={labels.get(source.id) ?? source.name}
          />
        </Fragment>
      ))}
    </Card>
  );
}

function ConnectorPlaceholder() {
  return (
    <Group
      justify="center"
      w={44}
      h={44}
      style={{ borderRadius: "var(--mantine-radius-md)", background: "var(--mantine-color-brand-0)", flexShrink: 0 }}
    >
      <IconPlug size={22} color="var(--mantine-color-brand-6)" />
    </Group>
  );
}
