import type { ChangeWindow } from "@app/core";
import { Alert, Badge, Card, Group, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { useParams } from "react-router";
import { usePageTitle } from "../app/page-title";
import { AddDomainForm, DomainsTable, GroupActions, useCampaign } from "../features/campaigns";
import { OnboardingAnchor, onboardingEvent } from "../features/onboarding";
import { useIsAdmin } from "../features/session/hooks";
import { errorMessage } from "../lib/api";
import { PageLoader } from "../ui/AppLoader";
import { IconAlert } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

const WINDOWS = [
  { value: "7", label: "Last 7 days" },
  { value: "30", label: "Last 30 days" },
];

/** /groups/:campaignId (campaign.show); the title is set by the group once it loads. */
export default function GroupShowScreen() {
  const { campaignId = "" } = useParams();
  const [days, setDays] = useState<ChangeWindow>(7);
  const group = useCampaign(campaignId, days);
  const isAdmin = useIsAdmin();
  const campaign = group.data;
  usePageTitle(campaign?.name);

  if (!campaign) {
    return group.isPending ? (
      <PageLoader />
    ) : (
      <>
        <PageHeader eyebrow="Group" title="Group" />
        <Alert color="red" icon={<IconAlert />}>
          {errorMessage(group.error)}
        </Alert>
      </>
    );
  }

  return (
    <>
      <PageHeader
        eyebrow="Group"
        title={
          <span style={{ display: "inline-flex", flexWrap: "wrap", alignItems: "center", gap: 12 }}>
            <span style={{ overflowWrap: "anywhere" }}>{campaign.name}</span>
            {/* Demo numbers must never pass for a client's real ones. */}
            {campaign.metrics_label ? (
              <Badge variant="light" color="orange" size="lg" title="Where these numbers come from">
                {campaign.metrics_label}
              </Badge>
            ) : null}
          </span>
        }
        description="Each domain's main metrics with their change over the window; an alert opens when one moves sharply."
        actions={
          <Group gap="sm">
            <OnboardingAnchor anchor="window-switch">
              <SegmentedControl
                aria-label="Change window"
                value={String(days)}
                onChange={(value) => {
                  setDays(value === "30" ? 30 : 7);
                  // The mc onboarding's "switch 7/30 days" step (docs/product.md §4).
                  onboardingEvent("window_switched");
                }}
                data={WINDOWS}
              />
            </OnboardingAnchor>
            {isAdmin ? <GroupActions campaign={campaign} /> : null}
          </Group>
        }
      />
      {group.isError ? (
        <Alert color="red" icon={<IconAlert />} mb="md">
          {errorMessage(group.error)}
        </Alert>
      ) : null}
      <Stack gap="lg">
        <Card>
          <AddDomainForm campaignId={campaign.id} />
        </Card>
        {campaign.domains.length > 0 ? (
          <Stack gap="xs">
            <Title order={2} size="h4">
              Domains
            </Title>
            <Text size="sm" c="dimmed">
              {days === 30
                ? "Changes compare the last 30 days with the 30 days before (levels: today against 30 days ago)."
                : "Changes compare the last 7 days with the 7 days before (levels: today against 7 days ago)."}
            </Text>
            <div aria-busy={group.isPlaceholderData}>
              <DomainsTable campaignId={campaign.id} domains={campaign.domains} />
            </div>
          </Stack>
        ) : (
          <Text c="dimmed" size="sm">
            No domains yet. Add the first one above: its last 60 days of metrics are collected at once.
          </Text>
        )}
      </Stack>
    </>
  );
}
