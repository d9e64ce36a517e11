import type { OnboardingSource } from "@app/core";
import { Button, Card, Group, Radio, SimpleGrid, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../../lib/api";
import { IconArrowRight, IconChart, IconMail, IconPlug, IconTarget } from "../../../ui/icons";
import { submitUserData } from "../../session/api";
import { useCurrentUser, useIsAdmin, usePageData } from "../../session/hooks";
import { onboardingStore } from "../instance";
import { afterIntroPath, INTRO_ANSWERS, introQuestion } from "../intro";

/** What the user meets first once past the intro, by flow (the line under Continue). */
const NEXT: Record<OnboardingSource, string> = {
  dashboard: "Next: connect your first data source.",
  mc: "Next: create your first group of domains.",
};

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

/**
 * The welcome step before the app: what the product does, the one-question questionnaire that picks the
 * onboarding flow (docs/product.md §3), then on to where that flow starts.
 */
export function IntroWelcome() {
  const user = useCurrentUser();
  const isAdmin = useIsAdmin();
  const { siteTitle, onboarding } = usePageData();
  const question = introQuestion(onboarding, isAdmin);
  const [answer, setAnswer] = useState<OnboardingSource>(question.initial);
  const [leaving, setLeaving] = useState(false);
  const mutation = useMutation({
    mutationFn: () => {
      // Only an answer the user could give is sent: without the question (a lifetime deal, a member)
      // the registration's flow stands.
      const source = question.offered ? answer : undefined;
      // Leaving the intro starts the answered flow at step 1 (docs/product.md §4), saved with the intro
      // and the answer in one request; a retry after a failed request sends the same step again.
      // The store is seeded here too: the intro may be clicked before the runtime has loaded, and a
      // changed answer restarts it in the other flow.
      onboardingStore.seed(user?.id ?? null, onboarding && { ...onboarding, ...(source && { source }) });
      const step = onboardingStore.passIntro() ?? onboardingStore.getSnapshot().state?.step ?? 0;
      return submitUserData({
        intro_passed: true,
        ...(step > 0 && { onboarding: step }),
        ...(source && { onboarding_source: source }),
      });
    },
    // A full page load, so the page data (intro passed, onboarding step and answer) is fresh.
    onSuccess: () => {
      setLeaving(true);
      window.location.assign(afterIntroPath(onboardingStore.getSnapshot().state?.flow ?? "dashboard"));
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
      {question.offered ? (
        <Card p={{ base: "md", sm: "lg" }}>
          <Radio.Group
            value={answer}
            onChange={(value) => setAnswer(value === "mc" ? "mc" : "dashboard")}
            label={
              <Text component="span" fw={600} size="lg">
                What do you want to do first?
              </Text>
            }
            description="We will guide you through it step by step. You can use everything else any time."
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" mt="md">
              {INTRO_ANSWERS.map((choice) => (
                <Radio.Card
                  key={choice.source}
                  value={choice.source}
                  aria-label={choice.title}
                  radius="md"
                  p="md"
                  // The chosen card is outlined, not only its dot: the answer decides where the user goes next.
                  style={
                    choice.source === answer
                      ? {
                          borderColor: "var(--mantine-primary-color-filled)",
                          background: "var(--mantine-primary-color-light)",
                        }
                      : undefined
                  }
                >
                  <Group gap="sm" wrap="nowrap" align="flex-start">
                    <Radio.Indicator mt={2} />
                    <Stack gap={2}>
                      <Text fw={600}>{choice.title}</Text>
                      <Text size="sm" c="dimmed">
                        {choice.text}
                      </Text>
                    </Stack>
                  </Group>
                </Radio.Card>
              ))}
            </SimpleGrid>
          </Radio.Group>
        </Card>
      ) : null}
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
            {NEXT[question.offered ? answer : question.initial]}
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
