import {
  describeSchedule,
  formatInstantInZone,
  REPORT_DATE_RANGE_LABELS,
  splitRecipients,
  type TAutomaticReport,
} from "@app/core";
import {
  ActionIcon,
  Anchor,
  Badge,
  Card,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { Fragment, useState } from "react";
import { Link } from "react-router";
import { errorMessage } from "../../../lib/api";
import { IconMail, IconPencil, IconTrash } from "../../../ui/icons";
import { useModals } from "../../../ui/modals";
import { useCompany } from "../../company";
import { usePageData } from "../../session/hooks";
import { useDeleteAutomaticReport, useSendAutomaticReport } from "../hooks";
import { ReportForm } from "./ReportForm";

/** The latest delivery in words: sent (late) or failed with its reason, in the report's zone. */
function LastResult({ report }: { report: TAutomaticReport }) {
  const last = report.last_result;
  if (!last)
    return (
      <Text size="xs" c="dimmed">
        Not sent yet
      </Text>
    );
  const when = formatInstantInZone(new Date(last.at), report.timezone);
  if (last.status === "failed") {
    return (
      <Stack gap={2} data-testid="last-result">
        <Badge color="red" variant="light" size="sm">
          Failed
        </Badge>
        <Text size="xs" c="red.8" style={{ overflowWrap: "anywhere" }}>
          {last.error}
        </Text>
        <Text size="xs" c="dimmed">
          {when}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap={2} data-testid="last-result">
      <Group gap={4}>
        <Badge color="teal" variant="light" size="sm">
          Sent
        </Badge>
        {last.late ? (
          <Badge color="yellow" variant="light" size="sm">
            Late
          </Badge>
        ) : null}
        {last.manual ? (
          <Badge color="gray" variant="light" size="sm">
            By hand
          </Badge>
        ) : null}
      </Group>
      <Text size="xs" c="dimmed">
        {when}
      </Text>
    </Stack>
  );
}

/**
 * The company's automatic reports (docs/product.md §2: open to every user): the dashboard each sends,
 * to whom, when in the report's own zone, the period it covers and what it attaches.
 */
export function AutomaticReportsTable({ reports }: { reports: TAutomaticReport[] }) {
  const modals = useModals();
  const deleteReport = useDeleteAutomaticReport();
  const sendReport = useSendAutomaticReport();
  const pageData = usePageData();
  const company = useCompany().data;
  const [editing, setEditing] = useState<TAutomaticReport | null>(null);

  const sendNow = (report: TAutomaticReport) =>
    sendReport.mutate(report.id, {
      onSuccess: () =>
        notifications.show({
          color: "teal",
          title: "Sending",
          message: `${report.dashboard.name} is being sent to ${report.recipients}.`,
        }),
      onError: (error) => notifications.show({ color: "red", title: "Could not send", message: errorMessage(error) }),
    });

  const remove = async (report: TAutomaticReport) => {
    const confirmed = await modals.question({
      message: `The report of ${report.dashboard.name} to ${report.recipients} will no longer be sent.`,
      submitLabel: "Delete",
      danger: true,
    });
    if (!confirmed) return;
    deleteReport.mutate(report.id, {
      onSuccess: () =>
        notifications.show({ color: "teal", title: "Report deleted", message: `${report.dashboard.name}: deleted.` }),
      onError: (error) => notifications.show({ color: "red", title: "Could not delete", message: errorMessage(error) }),
    });
  };

  if (reports.length === 0) {
    return (
      <Card>
        <Text c="dimmed" size="sm">
          No automatic reports yet. Open a dashboard, choose Share, then Mail reporting to e-mail it on a schedule.
        </Text>
      </Card>
    );
  }

  return (
    <Card p={0}>
      {/* Phones keep dashboard, schedule and actions; recipients and the rest move under the dashboard. */}
      <Table.ScrollContainer minWidth={340}>
        <Table highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Dashboard</Table.Th>
              <Table.Th visibleFrom="md" miw={210}>
                Recipients
              </Table.Th>
              <Table.Th>Schedule</Table.Th>
              <Table.Th visibleFrom="sm">Next run</Table.Th>
              <Table.Th visibleFrom="sm">Last result</Table.Th>
              <Table.Th w={112}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {reports.map((report) => {
              const recipients = splitRecipients(report.recipients);
              const nextRun = formatInstantInZone(new Date(report.next_run_at), report.timezone);
              return (
                <Table.Tr key={report.id} data-report-id={report.id}>
                  <Table.Td>
                    <Stack gap={4}>
                      <Anchor component={Link} to={`/dashboards/${report.dashboard.permalink}`} size="sm" fw={500}>
                        {report.dashboard.name}
                      </Anchor>
                      <Group gap={4}>
                        <Badge variant="light" color="gray" size="sm">
                          {REPORT_DATE_RANGE_LABELS[report.date_range]}
                        </Badge>
                        {report.with_preview ? (
                          <Badge variant="light" size="sm">
                            Preview
                          </Badge>
                        ) : null}
                        {report.with_pdf ? (
                          <Badge variant="light" color="grape" size="sm">
                            PDF
                          </Badge>
                        ) : null}
                      </Group>
                      <Text size="xs" c="dimmed" hiddenFrom="md" style={{ overflowWrap: "break-word" }}>
                        {recipients.map((address, index) => (
                          <Fragment key={address}>
                            {index > 0 ? ", " : null}
                            <Address value={address} />
                          </Fragment>
                        ))}
                      </Text>
                    </Stack>
                  </Table.Td>
                  <Table.Td visibleFrom="md">
                    <Stack gap={2}>
                      {recipients.map((address) => (
                        <Text key={address} size="sm" style={{ overflowWrap: "break-word" }}>
                          <Address value={address} />
                        </Text>
                      ))}
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{describeSchedule(report)}</Text>
                    <Text size="xs" c="dimmed" hiddenFrom="sm">
                      Next: {nextRun}
                    </Text>
                    <Stack hiddenFrom="sm" mt={4}>
                      <LastResult report={report} />
                    </Stack>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm" style={{ whiteSpace: "nowrap" }}>
                      {nextRun}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <LastResult report={report} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label="Send now">
                        <ActionIcon
                          variant="subtle"
                          aria-label={`Send the report of ${report.dashboard.name} now`}
                          onClick={() => sendNow(report)}
                          loading={sendReport.isPending && sendReport.variables === report.id}
                        >
                          <IconMail size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Edit report">
                        <ActionIcon
                          variant="subtle"
                          aria-label={`Edit the report of ${report.dashboard.name}`}
                          onClick={() => setEditing(report)}
                        >
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Delete report">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Delete the report of ${report.dashboard.name}`}
                          onClick={() => void remove(report)}
                          loading={deleteReport.isPending && deleteReport.variables === report.id}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? `Edit report: ${editing.dashboard.name}` : ""}
        size="lg"
      >
        {editing ? (
          <ReportForm
            dashboardId={editing.dashboard_id}
            widgetCount={editing.dashboard.widget_count}
            maxPdfWidgets={pageData.config.maxPdfWidgets}
            reportsOnDashboard={reports.filter((report) => report.dashboard_id === editing.dashboard_id).length}
            report={editing}
            defaultTimezone={editing.timezone}
            canCreate={company?.canCreateAutomaticReport ?? true}
            senderVerified={company?.verifiedWhitelabel ?? false}
            onSaved={() => {
              setEditing(null);
              notifications.show({ color: "teal", title: "Report saved", message: editing.dashboard.name });
            }}
            onCancel={() => setEditing(null)}
          />
        ) : null}
      </Modal>
    </Card>
  );
}

/** An e-mail address that wraps before its "@" or a "." on a narrow screen, never in the middle of a word. */
function Address({ value }: { value: string }) {
  return value.split(/(?=[@.])/).map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one address never reorder
    <Fragment key={index}>
      {index > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}
