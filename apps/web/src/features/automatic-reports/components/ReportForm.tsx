import {
  AUTOMATIC_REPORT_REFUSALS,
  describeSchedule,
  formatInstantInZone,
  MAX_REPORTS_PER_DASHBOARD,
  nextRunAfter,
  REPORT_DATE_RANGE_LABELS,
  REPORT_DATE_RANGES,
  type TAutomaticReport,
  WEEKDAY_NAMES,
} from "@app/core";
import {
  Alert,
  Button,
  Checkbox,
  Group,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from "@mantine/core";
import { useMemo, useState } from "react";
import { fieldErrors } from "../../../lib/api";
import { timezoneOptions } from "../../../ui/timezones";
import {
  canSchedule,
  defaultReportValues,
  type ReportFormValues,
  reportFormErrors,
  scheduleFromValues,
} from "../form-rules";
import { useSaveAutomaticReport } from "../hooks";

/** docs/product.md §8: shown while the company's sender domain is not verified. */
export const UNVERIFIED_SENDER_WARNING =
  "Your email dns is still not verified. Scheduling automatic report now could cause your emails not to be delivered.";

const MONTH_DETAILS = [
  { value: "FIRST_DAY", label: "First day" },
  { value: "LAST_DAY", label: "Last day" },
  { value: "FIRST_WORK_DAY", label: "First working day" },
];
// Sunday listed first (docs/product.md §3), 0 = Sunday.
const WEEK_DETAILS = WEEKDAY_NAMES.map((name, index) => ({ value: String(index), label: name }));

function valuesOf(report: TAutomaticReport): ReportFormValues {
  return {
    recipients: report.recipients,
    period: report.period,
    detail: String(report.detail),
    hour: String(report.hour),
    minute: String(report.minute).padStart(2, "0"),
    timezone: report.timezone,
    date_range: report.date_range,
    with_preview: report.with_preview,
    with_pdf: report.with_pdf,
  };
}

export interface ReportFormProps {
  dashboardId: string;
  widgetCount: number;
  maxPdfWidgets: number;
  /** How many reports the dashboard has (the limit is 5). */
  reportsOnDashboard: number;
  /** The report being edited, or null for a new one. */
  report: TAutomaticReport | null;
  /** The zone a new report starts with: the company's. */
  defaultTimezone: string;
  canCreate: boolean;
  senderVerified: boolean;
  onSaved: (report: TAutomaticReport) => void;
  onCancel?: () => void;
}

/** The automatic report form (docs/product.md §3, §5), for a new report or an edit. */
export function ReportForm(props: ReportFormProps) {
  const { dashboardId, report } = props;
  const [values, setValues] = useState<ReportFormValues>(() =>
    report ? valuesOf(report) : defaultReportValues(props.defaultTimezone),
  );
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const save = useSaveAutomaticReport();
  const zones = useMemo(() => timezoneOptions(values.timezone), [values.timezone]);
  const set = (patch: Partial<ReportFormValues>) => {
    setValues((current) => ({ ...current, ...patch }));
    setServerErrors({});
  };

  const errors = { ...(touched ? reportFormErrors(dashboardId, values) : {}), ...serverErrors };
  const schedule = scheduleFromValues(values);
  const pdfBlocked = props.widgetCount > props.maxPdfWidgets;
  const limitReached = !report && props.reportsOnDashboard >= MAX_REPORTS_PER_DASHBOARD;
  const enabled =
    canSchedule(values, props.reportsOnDashboard, report !== null) && (report !== null || props.canCreate);

  const submit = () => {
    setTouched(true);
    if (Object.keys(reportFormErrors(dashboardId, values)).length > 0) return;
    save.mutate(
      { id: report?.id ?? null, dashboardId, values },
      {
        onSuccess: (saved) => props.onSaved(saved),
        onError: (error) => setServerErrors(fieldErrors(error) ?? { general: String((error as Error).message) }),
      },
    );
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        {props.senderVerified ? null : (
          <Alert color="yellow" variant="light" data-testid="unverified-sender">
            {UNVERIFIED_SENDER_WARNING}
          </Alert>
        )}
        {limitReached ? (
          <Alert color="red" variant="light">
            {AUTOMATIC_REPORT_REFUSALS.perDashboardLimit}
          </Alert>
        ) : null}
        {!report && !props.canCreate ? (
          <Alert color="red" variant="light">
            {AUTOMATIC_REPORT_REFUSALS.notAllowed}
          </Alert>
        ) : null}
        {errors.general ? (
          <Alert color="red" variant="light" role="alert">
            {errors.general}
          </Alert>
        ) : null}
        <Textarea
          label="Recipients"
          description="Up to 5 addresses, separated by commas"
          placeholder="ceo@client.com, marketing@client.com"
          autosize
          minRows={1}
          value={values.recipients}
          onChange={(event) => set({ recipients: event.currentTarget.value })}
          onBlur={() => setTouched(true)}
          error={errors.recipients}
          required
        />
        <SegmentedControl
          aria-label="Period"
          data={[
            { value: "MONTH", label: "Monthly" },
            { value: "WEEK", label: "Weekly" },
          ]}
          value={values.period}
          onChange={(period) =>
            set({ period: period as ReportFormValues["period"], detail: period === "WEEK" ? "1" : "FIRST_DAY" })
          }
        />
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <Select
            label={values.period === "WEEK" ? "Day of the week" : "Day of the month"}
            data={values.period === "WEEK" ? WEEK_DETAILS : MONTH_DETAILS}
            value={values.detail}
            onChange={(detail) => detail !== null && set({ detail })}
            allowDeselect={false}
            error={errors.detail}
          />
          <TextInput
            label="Hour"
            inputMode="numeric"
            value={values.hour}
            onChange={(event) => set({ hour: event.currentTarget.value })}
            onBlur={() => setTouched(true)}
            error={errors.hour}
          />
          <TextInput
            label="Minute"
            inputMode="numeric"
            value={values.minute}
            onChange={(event) => set({ minute: event.currentTarget.value })}
            onBlur={() => setTouched(true)}
            error={errors.minute}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label="Time zone"
            data={zones}
            searchable
            value={values.timezone}
            onChange={(timezone) => timezone && set({ timezone })}
            allowDeselect={false}
            error={errors.timezone}
          />
          <Select
            label="Date range"
            data={REPORT_DATE_RANGES.map((range) => ({ value: range, label: REPORT_DATE_RANGE_LABELS[range] }))}
            value={values.date_range}
            onChange={(range) => range && set({ date_range: range as ReportFormValues["date_range"] })}
            allowDeselect={false}
          />
        </SimpleGrid>
        <Group gap="lg">
          <Checkbox
            label="Preview image in the e-mail"
            checked={values.with_preview}
            onChange={(event) => set({ with_preview: event.currentTarget.checked })}
          />
          <Tooltip
            label={AUTOMATIC_REPORT_REFUSALS.pdfAboveWidgetLimit(props.maxPdfWidgets)}
            disabled={!pdfBlocked}
            multiline
            maw={260}
          >
            <span>
              <Checkbox
                label="Attach the PDF"
                checked={values.with_pdf && !pdfBlocked}
                disabled={pdfBlocked}
                onChange={(event) => set({ with_pdf: event.currentTarget.checked })}
                error={errors.with_pdf}
              />
            </span>
          </Tooltip>
        </Group>
        <Text size="sm" c="dimmed" data-testid="schedule-words">
          {schedule
            ? `${describeSchedule(schedule)} · next: ${formatInstantInZone(nextRunAfter(schedule, new Date()), schedule.timezone)}`
            : "Choose a valid time to see when it is sent."}
        </Text>
        <Group justify="flex-end" gap="sm">
          {props.onCancel ? (
            <Button variant="default" onClick={props.onCancel}>
              Cancel
            </Button>
          ) : null}
          <Button type="submit" disabled={!enabled} loading={save.isPending}>
            {report ? "Save report" : "Schedule report"}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
