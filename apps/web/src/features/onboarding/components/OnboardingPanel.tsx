import { onboardingProgress } from "@app/core";
import { Box, Button, Group, Paper, Progress, Stack, Text, ThemeIcon, Title, VisuallyHidden } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useId } from "react";
import { IconChevronDown, IconCircleCheck } from "../../../ui/icons";
import { useOnboarding } from "../hooks";
import { onboardingStore } from "../instance";

/**
 * The "Getting started" panel of docs/product.md §2: title, progress bar, and the Get Started button that
 * shows and hides the flow's checklist. It takes its place in the page above the content, never over it:
 * on a phone it starts folded to one line, so the dashboard is right below it.
 */
export function OnboardingPanel() {
  const { state, panelOpen } = useOnboarding();
  const wide = useMediaQuery("(min-width: 48em)", true, { getInitialValueInEffect: false });
  const shown = panelOpen ?? wide;
  const listId = useId();
  const titleId = useId();
  if (state === null) return null;
  const progress = onboardingProgress(state);

  return (
    <Paper component="section" aria-labelledby={titleId} withBorder p="sm" px="md" radius="md" mb="md">
      <Group gap="md" wrap="nowrap" justify="space-between">
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap" justify="space-between">
            <Title order={2} size="h5" id={titleId}>
              Getting started
            </Title>
            <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }}>
              {progress.done} of {progress.total} done
            </Text>
          </Group>
          <Progress value={progress.percent} aria-label="Getting started progress" size="sm" radius="xl" />
        </Stack>
        <Button
          variant={shown ? "default" : "filled"}
          size="xs"
          rightSection={
            <IconChevronDown size={14} style={{ transform: shown ? "rotate(180deg)" : undefined }} aria-hidden />
          }
          aria-expanded={shown}
          aria-controls={listId}
          onClick={() => onboardingStore.setPanelOpen(!shown)}
          style={{ flexShrink: 0 }}
        >
          Get Started
        </Button>
      </Group>
      <Box
        id={listId}
        component="ol"
        hidden={!shown}
        m={0}
        mt="sm"
        p={0}
        style={{
          listStyle: "none",
          display: shown ? "grid" : "none",
          gridTemplateColumns: "repeat(auto-fill, minmax(200px, 1fr))",
          gap: "4px 16px",
        }}
      >
        {progress.checklist.map((item) => (
          <Group
            key={item.key}
            component="li"
            gap="sm"
            py={4}
            wrap="nowrap"
            aria-current={item.current ? "step" : undefined}
          >
            {item.done ? (
              <ThemeIcon size={24} radius="xl" color="teal.7" aria-hidden="true">
                <IconCircleCheck size={16} />
              </ThemeIcon>
            ) : (
              <ThemeIcon
                size={24}
                radius="xl"
                variant={item.current ? "filled" : "light"}
                color={item.current ? "brand" : "gray"}
                aria-hidden="true"
              >
                <Text size="xs" fw={700} c="inherit">
                  {item.step}
                </Text>
              </ThemeIcon>
            )}
            <Text
              size="sm"
              fw={item.current ? 600 : 400}
              c={item.done ? "dimmed" : undefined}
              td={item.done ? "line-through" : undefined}
            >
              {item.label}
              {item.done || item.current ? (
                <VisuallyHidden>{item.done ? " (done)" : " (current step)"}</VisuallyHidden>
              ) : null}
            </Text>
          </Group>
        ))}
      </Box>
    </Paper>
  );
}
