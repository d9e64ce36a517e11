import { describeSchedule, type TAutomaticReport } from "@app/core";
import { Anchor, Button, Divider, Group, Loader, Modal, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { Link } from "react-router";
import { browserTimeZone } from "../../../lib/time-zone";
import { useCompany } from "../../company";
import { usePageData } from "../../session/hooks";
import { useAutomaticReports } from "../hooks";
import { ReportForm } from "./ReportForm";

export interface MailReportingModalProps {
  opened: boolean;
  onClose: () => void;
  dashboard: { id: string; name: string; widgetCount: number };
}

/**
 * Mail reporting (docs/product.md §2, the "Sharing" menu, owner only): the dashboard's automatic reports and the
 * form to schedule another or change one.
 */
export function MailReportingModal({ opened, onClose, dashboard }: MailReportingModalProps) {
  const pageData = usePageData();
  const company = useCompany().data;
  const reports = useAutomaticReports();
  const [editing, setEditing] = useState<TAutomaticReport | null>(null);
  const [formKey, setFormKey] = useState(0);
  const mine = (reports.data ?? []).filter((report) => report.dashboard_id === dashboard.id);
  const done = (report: TAutomaticReport, verb: string) => {
    notifications.show({ color: "teal", title: `Report ${verb}`, message: describeSchedule(report) });
    setEditing(null);
    setFormKey((key) => key + 1);
  };

  return (
    <Modal opened={opened} onClose={onClose} title={`Mail reporting: ${dashboard.name}`} size="lg">
      <Stack gap="md">
        {reports.isPending ? (
          <Loader size="sm" />
        ) : mine.length > 0 ? (
          <Stack gap={6} data-testid="dashboard-reports">
            {mine.map((report) => (
              <Group key={report.id} justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500} style={{ overflowWrap: "anywhere" }}>
                    {report.recipients}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {describeSchedule(report)}
                  </Text>
                </Stack>
                <Button size="compact-sm" variant="default" onClick={() => setEditing(report)}>
                  Edit
                </Button>
              </Group>
            ))}
            <Anchor component={Link} to="/company/automatic-reports" size="xs">
              All automatic reports
            </Anchor>
          </Stack>
        ) : null}
        {mine.length > 0 ? <Divider label={editing ? "Edit report" : "New report"} labelPosition="left" /> : null}
        <ReportForm
          key={editing ? `edit-${editing.id}` : `new-${formKey}`}
          dashboardId={dashboard.id}
          widgetCount={dashboard.widgetCount}
          maxPdfWidgets={pageData.config.maxPdfWidgets}
          reportsOnDashboard={mine.length}
          report={editing}
          // A new report starts on the agency's clock, not on whoever happens to open the form.
          defaultTimezone={company?.timezone || pageData.session?.timezone || browserTimeZone()}
          canCreate={company?.canCreateAutomaticReport ?? true}
          senderVerified={company?.verifiedWhitelabel ?? false}
          onSaved={(report) => done(report, editing ? "saved" : "scheduled")}
          onCancel={editing ? () => setEditing(null) : undefined}
        />
      </Stack>
    </Modal>
  );
}
