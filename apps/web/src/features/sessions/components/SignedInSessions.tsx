import type { TSignedInSession } from "@app/core";
import { Alert, Badge, Button, Divider, Group, Loader, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { Fragment } from "react";
import { errorMessage } from "../../../lib/api";
import { IconAlert } from "../../../ui/icons";
import { useModals } from "../../../ui/modals";
import { useEndOtherSessions, useEndSession, useSignedInSessions } from "../hooks";

/** "12 Mar 2026, 14:05" in the browser's language and zone. */
function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** "Chrome 131 on Windows"; "Unknown browser" where the user agent named none (or none was recorded yet). */
export function deviceName(session: Pick<TSignedInSession, "browser" | "system">): string {
  const browser = session.browser ?? "Unknown browser";
  return session.system ? `${browser} on ${session.system}` : browser;
}

function SessionRow({ session }: { session: TSignedInSession }) {
  const end = useEndSession();
  const signOut = () =>
    end.mutate(session.id, {
      onSuccess: () =>
        notifications.show({ color: "teal", title: "Signed out", message: `${deviceName(session)} is signed out.` }),
      onError: (error) =>
        notifications.show({ color: "red", title: "Could not sign out", message: errorMessage(error) }),
    });
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm" data-testid="signed-in-session">
      <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
        <Group gap="xs" wrap="wrap">
          <Text fw={600} style={{ overflowWrap: "anywhere" }}>
            {deviceName(session)}
          </Text>
          {session.current ? (
            <Badge color="teal" variant="light">
              This device
            </Badge>
          ) : null}
        </Group>
        {session.place ? (
          <Text size="sm" style={{ overflowWrap: "anywhere" }}>
            {session.place}
          </Text>
        ) : null}
        <Group gap="md" wrap="wrap" style={{ rowGap: 0 }}>
          <Text size="sm" c="dimmed">
            Last seen {when(session.lastSeenAt)}
          </Text>
          <Text size="sm" c="dimmed">
            First seen {when(session.firstSeenAt)}
          </Text>
        </Group>
      </Stack>
      {session.current ? null : (
        <Button
          variant="default"
          size="xs"
          onClick={signOut}
          loading={end.isPending}
          aria-label={`Sign out ${deviceName(session)}`}
          style={{ flexShrink: 0 }}
        >
          Sign out
        </Button>
      )}
    </Group>
  );
}

/** The profile's list of where the user is signed in; ends any other session, or all of them. */
export function SignedInSessions() {
  const sessions = useSignedInSessions();
  const endOthers = useEndOtherSessions();
  const modals = useModals();

  if (sessions.isPending) return <Loader size="sm" />;
  if (sessions.isError)
    return (
      <Alert color="red" icon={<IconAlert />}>
        {errorMessage(sessions.error)}
      </Alert>
    );
  const others = sessions.data.filter((session) => !session.current).length;

  const signOutOthers = async () => {
    const confirmed = await modals.question({
      title: "Sign out all other sessions?",
      message: "Every other browser and device signed in to your account will have to sign in again.",
      submitLabel: "Sign out others",
      danger: true,
    });
    if (!confirmed) return;
    endOthers.mutate(undefined, {
      onSuccess: (ended) =>
        notifications.show({
          color: "teal",
          title: "Other sessions signed out",
          message: ended === 1 ? "1 session was signed out." : `${ended} sessions were signed out.`,
        }),
      onError: (error) =>
        notifications.show({ color: "red", title: "Could not sign out", message: errorMessage(error) }),
    });
  };

  return (
    <Stack gap="md">
      <Stack gap="sm" aria-label="Signed-in sessions">
        {sessions.data.map((session, index) => (
          <Fragment key={session.id}>
            {index > 0 ? <Divider /> : null}
            <SessionRow session={session} />
          </Fragment>
        ))}
      </Stack>
      <Group>
        <Button
          color="red"
          variant="light"
          onClick={signOutOthers}
          disabled={others === 0}
          loading={endOthers.isPending}
        >
          Sign out all other sessions
        </Button>
      </Group>
    </Stack>
  );
}
