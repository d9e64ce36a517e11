import { AppShell, Box, Group } from "@mantine/core";
import { Outlet } from "react-router";
import { useCurrentUser, usePageData } from "../../features/session/hooks";
import { BrandMark } from "../../ui/BrandMark";
import { UserMenu } from "../shell/UserMenu";

/** Signed-in frame without navigation, for steps that come before the app (the intro). */
export function FocusLayout() {
  const { siteTitle, company } = usePageData();
  const user = useCurrentUser();
  return (
    <AppShell header={{ height: 64 }} padding={{ base: "md", sm: "xl" }}>
      <AppShell.Header>
        <Group h="100%" px={{ base: "md", sm: "lg" }} justify="space-between">
          <BrandMark siteTitle={siteTitle} logoUrl={company?.logo} />
          {user ? <UserMenu user={user} /> : null}
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Box maw={960} mx="auto">
          <Outlet />
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
