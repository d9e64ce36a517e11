import type { TUser } from "@app/core";
import { AppShell, Box, Burger, Group } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useEffect } from "react";
import { Link, Outlet, useLocation } from "react-router";
import { TopMessagesBar } from "../../features/messages/TopMessagesBar";
import { OnboardingPanelSlot } from "../../features/onboarding";
import { useCurrentUser, usePageData } from "../../features/session/hooks";
import { BrandMark } from "../../ui/BrandMark";
import { AppNavbar } from "../shell/AppNavbar";
import { UserMenu } from "../shell/UserMenu";
import { PublicLayout } from "./PublicLayout";

const CONTENT_MAX_WIDTH = 1200;

function SignedInShell({ user }: { user: TUser }) {
  const { siteTitle, company } = usePageData();
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();

  // On phones the navbar is an overlay: close it once a link was followed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation on purpose.
  useEffect(() => {
    close();
  }, [pathname, close]);

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 268, breakpoint: "sm", collapsed: { mobile: !opened } }}
      padding={{ base: "md", sm: "xl" }}
    >
      <AppShell.Header>
        <Group h="100%" px={{ base: "md", sm: "lg" }} justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Link to="/dashboards" aria-label={`${siteTitle} home`} style={{ textDecoration: "none" }}>
              <BrandMark siteTitle={siteTitle} logoUrl={company?.logo} />
            </Link>
          </Group>
          <UserMenu user={user} />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar>
        <AppNavbar user={user} />
      </AppShell.Navbar>
      <AppShell.Main>
        <Box maw={CONTENT_MAX_WIDTH} mx="auto">
          <TopMessagesBar />
          <OnboardingPanelSlot />
          <Outlet />
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}

/** Frame of the in-app screens: navbar and header when signed in, a light public frame otherwise. */
export function AppLayout() {
  const user = useCurrentUser();
  return user ? <SignedInShell user={user} /> : <PublicLayout />;
}
