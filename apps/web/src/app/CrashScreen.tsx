import { Button, Center, Stack, Text, Title } from "@mantine/core";
import { useEffect, useLayoutEffect } from "react";
import { useRouteError } from "react-router";
import { removeBootView } from "../features/dashboard/boot-view";
import { reportError } from "../lib/error-reporting";

/** Last resort when a screen throws while rendering. */
export function CrashScreen() {
  const error = useRouteError();
  useEffect(() => {
    if (!error) return;
    console.error(error);
    reportError(error, { screen: "crash" });
  }, [error]);
  // A public dashboard's server-painted header must not hide this message.
  useLayoutEffect(removeBootView, []);
  return (
    <Center mih="100vh" p="xl">
      <Stack align="center" gap="md" ta="center" maw={440}>
        <Title order={1}>Something went wrong</Title>
        <Text c="dimmed">An unexpected error stopped this page. Reloading usually helps.</Text>
        <Button onClick={() => window.location.reload()}>Reload page</Button>
      </Stack>
    </Center>
  );
}
