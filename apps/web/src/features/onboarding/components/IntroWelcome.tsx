import { Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../../lib/api";
import { IconArrowRight, IconChart, IconMail, IconPlug, IconTarget } from "../../../ui/icons";
import { submitUserData } from "../../session/api";
import { useCurrentUser, usePageData } from "../../session/hooks";
import { onboardingStore } from "../instance";

const AFTER_INTRO_PATH = "/company/sources";

const STEPS = [
  {
    icon: <IconPlug size={22} />,
    title: "Connect your sources",
    text: "Link Google Analytics, Search Console, Ads, Facebook, SEO tools, e-mail and commerce accounts once for the whole team.",
  },
  {
    icon: <IconChart size={22} />,
    title: "Build dashboards",
    text: "Arrange charts, tables and numbers into dashboards, and compare any period with the one before.",
  },
  {
    icon: <IconMail size={22} />,
    title: "Share and automate",
    text: "Send a live link, export a PDF, or e-mail a report to your clients every week or month.",
  },
  {
    icon: <IconTarget size={22} />,
    title: "Watch your domains",
    text: "Groups (Mission Control) track your domains and alert you when something changes.",
  },
];

/** The welcome step before the app: what the product does, then on to connecting sources. */
export function IntroWelcome() {
  const user = useCurrentUser();
  const { siteTitle, onboarding } = usePageData();
  const [leaving, setLeaving] = useState(false);
  const mutation = useMutation({
    mutationFn: () => {
      // Leaving the intro starts the guided flow at step 1 (docs/product.md §4), saved with the intro; a
      // retry after a failed request sends the same step again.
      // The store is seeded here too: the intro may be clicked before the runtime has loaded.
      onboardingStore.seed(user?.id ?? null, onboarding);
      const step = onboardingStore.passIntro() ?? onboardingStore.getSnapshot().state?.step ?? 0;
      return submitUserData({ intro_passed: true, ...(step > 0 && { onboarding: step }) });
    },
    // A full page load, so the page data (intro passed, onboarding step) is fresh.
    onSuccess: () => {
      setLeaving(true);
      window.location.assign(AFTER_INTRO_PATH);
    },
  });
  const firstName = user?.name.split(" ")[0] ?? "";

  return (
    <Stack gap="xl" py={{ base: "md", sm: "xl" }}>
      <Stack gap="xs" ta="center" align="center">
        <Text size="sm" fw={600} c="brand.7" tt="uppercase" style={{ letterSpacing: 0.8 }}>
          Welcome aboard
        </Text>
        <Title order={1} fz={{ base: 28, sm: 36 }}>
          {firstName ? `Hi ${firstName}, welcome to ${siteTitle}` : `Welcome to ${siteTitle}`}
        </Title>
        <Text c="dimmed" maw={560}>
          {siteTitle} turns the numbers from your marketing tools into clear reports for your clients and your team.
          Here is how it works.
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        {STEPS.map((step, index) => (
          <Card key={step.title}>
            <Group gap="md" align="flex-start" wrap="nowrap">
              <ThemeIcon size={44} radius="md" variant="light">
                {step.icon}
              </ThemeIcon>
              <Stack gap={4}>
                <Text fw={600}>
                  {index + 1}. {step.title}
                </Text>
                <Text size="sm" c="dimmed">
                  {step.text}
                </Text>
              </Stack>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      <Stack align="center" gap="xs">
        <Button
          size="lg"
          rightSection={<IconArrowRight />}
          onClick={() => mutation.mutate()}
          loading={mutation.isPending || leaving}
        >
          Continue
        </Button>
        {mutation.isError ? (
          <Text c="red" size="sm" role="alert">
            {errorMessage(mutation.error)}
          </Text>
        ) : (
          <Text c="dimmed" size="sm">
            Next: connect your first data source.
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
