import { DOMAIN_METRICS, type TCampaignDomainWithMetrics } from "@app/core";
import { ActionIcon, Badge, Button, Card, Group, Stack, Table, Text, Tooltip } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type CSSProperties, Fragment } from "react";
import { errorMessage } from "../../../lib/api";
import { IconAlert, IconClock, IconTrash } from "../../../ui/icons";
import { useModals } from "../../../ui/modals";
import { OnboardingAnchor } from "../../onboarding";
import { useRemoveCampaignDomain, useSnoozeCampaignDomain } from "../hooks";
import { attentionOrder, domainAsOf, formatDay, formatInstantDay, MAIN_METRICS, metricCell } from "../view-model";
import { MetricValue } from "./MetricValue";

/** The domain column stays in view while the metrics scroll past it. */
const PINNED: CSSProperties = {
  position: "sticky",
  left: 0,
  zIndex: 1,
  minWidth: 150,
  maxWidth: 220,
  background: "var(--mantine-color-body)",
  boxShadow: "1px 0 0 var(--mantine-color-gray-3)",
};

/** A domain with open alerts stands out: a red edge and tint (and its reasons listed under it). */
const ALERTED_ROW: CSSProperties = { background: "var(--mantine-color-red-0)" };
const ALERTED_PIN: CSSProperties = {
  background: "var(--mantine-color-red-0)",
  boxShadow: "inset 4px 0 0 var(--mantine-color-red-6), 1px 0 0 var(--mantine-color-gray-3)",
};
const ALERT_LIST: CSSProperties = {
  position: "sticky",
  left: 12,
  maxWidth: "min(860px, calc(100vw - 64px))",
  margin: 0,
  paddingLeft: 4,
  listStyle: "none",
  display: "grid",
  gap: 4,
};

/**
 * One row per domain: its main metrics with their change over the window, its open alerts, and
 * snooze/remove. The table scrolls sideways inside its own focusable region on a phone, with the
 * domain column pinned, so every column stays reachable without the page itself scrolling.
 */
export function DomainsTable({ campaignId, domains }: { campaignId: string; domains: TCampaignDomainWithMetrics[] }) {
  const modals = useModals();
  const remove = useRemoveCampaignDomain(campaignId);
  const snooze = useSnoozeCampaignDomain(campaignId);

  const confirmRemove = async (domain: TCampaignDomainWithMetrics) => {
    const confirmed = await modals.question({
      title: `Remove ${domain.domain}?`,
      message: "Its stored metrics and alerts are deleted with it. You can add it again later.",
      submitLabel: "Remove",
      danger: true,
    });
    if (!confirmed) return;
    remove.mutate(domain.id, {
      onError: (error) => notifications.show({ color: "red", title: "Could not remove", message: errorMessage(error) }),
    });
  };

  const toggleSnooze = (domain: TCampaignDomainWithMetrics) => {
    snooze.mutate(
      { domainId: domain.id, snooze: !domain.snoozed },
      {
        onError: (error) =>
          notifications.show({ color: "red", title: "Could not change the snooze", message: errorMessage(error) }),
      },
    );
  };

  return (
    <Card p={0}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to scroll it. */}
      <section aria-label="Domains" tabIndex={0} style={{ overflowX: "auto", borderRadius: "inherit" }}>
        <Table verticalSpacing="sm" miw={920}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th style={PINNED}>Domain</Table.Th>
              {MAIN_METRICS.map((key) => (
                <Table.Th key={key} ta="right">
                  {DOMAIN_METRICS[key].label}
                </Table.Th>
              ))}
              <Table.Th ta="right">Open alerts</Table.Th>
              <Table.Th ta="right">Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {attentionOrder(domains).map((domain, index) => {
              const asOf = domainAsOf(domain);
              const byKey = new Map(domain.metrics.map((metric) => [metric.metric, metric]));
              const pending = snooze.isPending && snooze.variables?.domainId === domain.id;
              const alerted = domain.alerts.length > 0;
              const snoozeButton = (
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconClock size={14} aria-hidden />}
                  onClick={() => toggleSnooze(domain)}
                  loading={pending}
                >
                  {domain.snoozed ? "Un-snooze" : "Snooze for a week"}
                </Button>
              );
              return (
                <Fragment key={domain.id}>
                  <Table.Tr
                    data-domain={domain.domain}
                    data-alerted={alerted || undefined}
                    style={alerted ? ALERTED_ROW : undefined}
                  >
                    <Table.Th scope="row" style={alerted ? { ...PINNED, ...ALERTED_PIN } : PINNED} fw="normal">
                      <Stack gap={2}>
                        <Text size="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
                          {domain.domain}
                        </Text>
                        {asOf ? (
                          <Text size="xs" c="dimmed">
                            As of {formatDay(asOf)}
                          </Text>
                        ) : null}
                        {domain.snoozed && domain.alerts_snoozed_until ? (
                          <Group gap={4} wrap="nowrap">
                            <IconClock size={12} aria-hidden />
                            <Text size="xs" c="dimmed">
                              Snoozed until {formatInstantDay(domain.alerts_snoozed_until)}
                            </Text>
                          </Group>
                        ) : null}
                      </Stack>
                    </Table.Th>
                    {domain.metrics_status === "ready" ? (
                      MAIN_METRICS.map((key) => (
                        <Table.Td key={key} ta="right">
                          <MetricValue cell={metricCell(key, byKey.get(key))} rowAsOf={asOf} />
                        </Table.Td>
                      ))
                    ) : (
                      <Table.Td colSpan={MAIN_METRICS.length}>
                        <Text size="sm" c="dimmed" data-status={domain.metrics_status}>
                          {domain.metrics_status === "backfilling"
                            ? "Collecting data… the last 60 days appear here in a moment."
                            : domain.metrics_status === "not_covered" && domain.metrics_hint
                              ? domain.metrics_hint
                              : "No data: this group's source has nothing for this domain."}
                        </Text>
                      </Table.Td>
                    )}
                    <Table.Td ta="right">
                      {domain.open_alert_count > 0 ? (
                        <Badge color="red" variant="filled">
                          {domain.open_alert_count}
                        </Badge>
                      ) : (
                        <Text size="sm" c="dimmed">
                          {domain.snoozed ? "Snoozed" : "0"}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        {/* The mc onboarding's snooze hint points at the first row's button (docs/product.md §4). */}
                        {index === 0 ? (
                          <OnboardingAnchor anchor="snooze-domain">{snoozeButton}</OnboardingAnchor>
                        ) : (
                          snoozeButton
                        )}
                        <Tooltip label="Remove domain">
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Remove ${domain.domain}`}
                            onClick={() => void confirmRemove(domain)}
                            loading={remove.isPending && remove.variables === domain.id}
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                  {alerted ? (
                    <Table.Tr data-alerts-of={domain.domain} style={ALERTED_ROW}>
                      <Table.Td colSpan={MAIN_METRICS.length + 3} pt={0}>
                        {/* Pinned like the domain column, so a phone shows the reasons without scrolling sideways. */}
                        <ul aria-label={`Open alerts of ${domain.domain}`} style={ALERT_LIST}>
                          {domain.alerts.map((alert) => (
                            <li key={alert.id} style={{ display: "flex", gap: 6, alignItems: "baseline" }}>
                              <IconAlert
                                size={14}
                                aria-hidden
                                color="var(--mantine-color-red-7)"
                                style={{ flex: "none" }}
                              />
                              <Text size="sm" span>
                                {alert.reason}
                                <Text span size="xs" c="dimmed">
                                  {" "}
                                  · since {formatInstantDay(alert.opened_at)}
                                </Text>
                              </Text>
                            </li>
                          ))}
                        </ul>
                      </Table.Td>
                    </Table.Tr>
                  ) : null}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </section>
    </Card>
  );
}
