import { AppShell, Box, Button, Group } from "@mantine/core";
import { Link, Outlet } from "react-router";
import { usePageData } from "../../features/session/hooks";
import { BrandMark } from "../../ui/BrandMark";

/** Frame for visitors who are not signed in (shared dashboards, error pages). */
export function PublicLayout() {
  const { siteTitle } = usePageData();
  return (
    <AppShell header={{ height: 64 }} padding={{ base: "md", sm: "xl" }}>
      <AppShell.Header>
        <Group h="100%" px={{ base: "md", sm: "lg" }} justify="space-between">
          <BrandMark siteTitle={siteTitle} />
          <Button component={Link} to="/login" variant="default">
            Log in
          </Button>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Box maw={1200} mx="auto">
          <Outlet />
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
