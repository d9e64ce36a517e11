import { Box, Center, Group, List, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { Outlet } from "react-router";
import { usePageData } from "../../features/session/hooks";
import { BrandMark } from "../../ui/BrandMark";
import { IconChart, IconCheck, IconMail, IconPlug } from "../../ui/icons";

const POINTS = [
  { icon: <IconPlug size={18} />, text: "Connect analytics, ads, SEO, e-mail and commerce sources" },
  { icon: <IconChart size={18} />, text: "Build client-ready dashboards from drag-and-drop widgets" },
  { icon: <IconMail size={18} />, text: "Share live links and send automatic PDF reports" },
];

/**
 * Frame of the sign-in, registration and invitation pages: a product panel beside the form. The panel is
 * a complementary landmark and the form the page's main one, so every part of the page sits in a
 * landmark a screen reader can jump to (axe: landmark-one-main, region).
 */
export function GuestLayout() {
  const { siteTitle } = usePageData();
  return (
    <Box mih="100vh" style={{ display: "flex" }} bg="white">
      <Box
        component="aside"
        aria-label={`About ${siteTitle}`}
        visibleFrom="md"
        w="44%"
        maw={620}
        p={56}
        style={{
          background:
            "radial-gradient(120% 80% at 0% 0%, var(--mantine-color-brand-4) 0%, transparent 60%), linear-gradient(160deg, var(--mantine-color-brand-7), var(--mantine-color-brand-9))",
          color: "white",
          display: "flex",
          flexDirection: "column",
          justifyContent: "space-between",
        }}
      >
        <Group gap={10}>
          <Box bg="white" p={6} style={{ borderRadius: 12, display: "inline-flex" }}>
            <BrandMark siteTitle={siteTitle} />
          </Box>
        </Group>
        <Stack gap="xl">
          <Title order={2} fz={34} lh={1.15} c="white">
            Marketing reporting your clients actually read.
          </Title>
          <List spacing="md" center icon={null} listStyleType="none" p={0}>
            {POINTS.map((point) => (
              <List.Item
                key={point.text}
                icon={
                  <ThemeIcon variant="white" color="brand" radius="xl" size={32}>
                    {point.icon}
                  </ThemeIcon>
                }
              >
                <Text c="white" fz="md" opacity={0.92}>
                  {point.text}
                </Text>
              </List.Item>
            ))}
          </List>
        </Stack>
        <Group gap={6} opacity={0.75}>
          <IconCheck size={16} />
          <Text size="sm" c="white">
            Built for agencies and in-house marketing teams
          </Text>
        </Group>
      </Box>
      <Center component="main" style={{ flex: 1 }} px={{ base: "md", sm: "xl" }} py={48}>
        <Stack w="100%" maw={460} gap="xl">
          <Box hiddenFrom="md">
            <BrandMark siteTitle={siteTitle} />
          </Box>
          <Outlet />
        </Stack>
      </Center>
    </Box>
  );
}
