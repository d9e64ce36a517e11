import "@mantine/dates/styles.css";
import {
  type DashboardDateRange,
  effectiveCompareRange,
  latestAllowedDay,
  minDay,
  RANGE_TYPES,
  type RangeLimits,
  type RangeType,
  rangeLength,
  rangeText,
  yearOptions,
} from "@app/core";
import { Button, Divider, Group, Modal, Popover, Stack, Switch, Text } from "@mantine/core";
import { DatesProvider } from "@mantine/dates";
import { useMediaQuery } from "@mantine/hooks";
import { type JSX, useMemo, useState } from "react";
import { useI18n } from "../../lib/i18n";
import { IconCalendar, IconChevronDown } from "../icons";
import { SelectInput } from "../SelectInput";
import { useDayjsLocale } from "./dayjs-locale";
import {
  chooseRangeType,
  type DayPair,
  fromDraft,
  pickCompareRange,
  pickMainRange,
  setCustomCompare,
  toDraft,
} from "./draft";
import { type CalendarControlLabels, monthOf, RangeCalendar } from "./RangeCalendar";

/** A dashboard's applied date range; dates are 'yyyy-MM-dd'; null compare dates mean the default comparison. */
export interface DateRangeValue {
  rangeType: RangeType;
  startDate: string;
  endDate: string;
  compareStartDate: string | null;
  compareEndDate: string | null;
  customCompare: boolean;
}

export interface DateRangePickerProps {
  value: DateRangeValue;
  onChange(value: DateRangeValue): void;
  /** Today in the viewer's zone, 'yyyy-MM-dd'. */
  today: string;
  /** docs/product.md §5: pickers end at yesterday unless today is allowed. */
  allowToday?: boolean;
  /** Offers the Custom Compare switch and its calendar (default true). */
  withCompare?: boolean;
  disabled?: boolean;
}

/** The range types in the dashboard's language ('Letzte 30 Tage'); plain English outside a dashboard. */
function rangeTypeOptions(t: ReturnType<typeof useI18n>["t"]) {
  return RANGE_TYPES.map((type) => ({ value: type.key, label: t(`range.${type.key}`) }));
}

/** "1 day", "30 days" ("30 Tage", "3 dnevi"): Intl's own unit words, so no plural needs a catalogue. */
function daysText(startDate: string | null, endDate: string | null, locale: string): string | null {
  if (!startDate || !endDate) return null;
  const days = rangeLength({ startDate, endDate });
  return new Intl.NumberFormat(locale, { style: "unit", unit: "day", unitDisplay: "long" }).format(days);
}

function SummaryLine({
  label,
  startDate,
  endDate,
  note,
}: {
  label: string;
  startDate: string | null;
  endDate: string | null;
  note?: string;
}) {
  const { locale } = useI18n();
  const days = daysText(startDate, endDate, locale);
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {rangeText(startDate, endDate, locale)}
      </Text>
      {days || note ? (
        <Text size="xs" c="dimmed">
          {[days, note].filter(Boolean).join(" · ")}
        </Text>
      ) : null}
    </Stack>
  );
}

interface PanelProps {
  draft: DashboardDateRange;
  onDraftChange: (draft: DashboardDateRange) => void;
  limits: RangeLimits;
  withCompare: boolean;
  onApply: () => void;
  onCancel: () => void;
  stacked: boolean;
}

/** The inside of the picker: range type, calendars, Custom Compare, Apply and Cancel. */
function PickerPanel({ draft, onDraftChange, limits, withCompare, onApply, onCancel, stacked }: PanelProps) {
  const { t, locale, language } = useI18n();
  // Weekday names and the days' accessible names are Mantine's, from dayjs's locale (loaded lazily).
  const dayjsLocale = useDayjsLocale(language);
  const mainLabels: CalendarControlLabels = {
    previous: t("picker.previousMonth"),
    next: t("picker.nextMonth"),
    month: t("picker.month"),
    year: t("picker.year"),
  };
  const compareLabels: CalendarControlLabels = {
    previous: t("picker.previousCompareMonth"),
    next: t("picker.nextCompareMonth"),
    month: t("picker.compareMonth"),
    year: t("picker.compareYear"),
  };
  const maxDate = latestAllowedDay(limits);
  const years = useMemo(() => yearOptions(limits.today), [limits.today]);
  const [mainMonth, setMainMonth] = useState(() => monthOf(draft.endDate ?? maxDate));
  const [compareMonth, setCompareMonth] = useState(() => monthOf(draft.compareEndDate ?? maxDate));
  const compare = effectiveCompareRange(draft);
  const showCompareCalendar = withCompare && draft.customCompare;
  const compareMax = draft.endDate ? minDay(maxDate, draft.endDate) : maxDate;

  const changeType = (type: string | null) => {
    const match = RANGE_TYPES.find((entry) => entry.key === type);
    if (!match) return;
    const next = chooseRangeType(draft, match.key, limits);
    onDraftChange(next);
    if (next.endDate) setMainMonth(monthOf(next.endDate));
  };

  const toggleCompare = (on: boolean) => {
    const next = setCustomCompare(draft, on);
    onDraftChange(next);
    if (on && next.compareEndDate) setCompareMonth(monthOf(next.compareEndDate));
  };

  return (
    <Stack gap="md">
      <Group align="flex-start" gap="lg" wrap={stacked ? "wrap" : "nowrap"}>
        <Stack gap="md" w={stacked ? "100%" : 236}>
          <SelectInput
            label={t("picker.rangeType")}
            data={rangeTypeOptions(t)}
            value={draft.rangeType}
            onChange={changeType}
            searchable={false}
            comboboxProps={{ withinPortal: false }}
          />
          {withCompare ? (
            <Switch
              label={t("picker.customCompare")}
              checked={draft.customCompare}
              onChange={(event) => toggleCompare(event.currentTarget.checked)}
            />
          ) : null}
          <Stack gap="sm" p="sm" bg="gray.0" style={{ borderRadius: "var(--mantine-radius-md)" }}>
            <SummaryLine label={t("picker.selected")} startDate={draft.startDate} endDate={draft.endDate} />
            {withCompare ? (
              <SummaryLine
                label={t("picker.comparedWith")}
                startDate={compare?.startDate ?? null}
                endDate={compare?.endDate ?? null}
                note={draft.customCompare ? t("picker.custom") : t("picker.previousPeriod")}
              />
            ) : null}
          </Stack>
        </Stack>
        <DatesProvider settings={{ locale: dayjsLocale, firstDayOfWeek: 1 }}>
          <Group align="flex-start" gap="lg" wrap={stacked ? "wrap" : "nowrap"} w={stacked ? "100%" : undefined}>
            <RangeCalendar
              title={t("dashboard.dateRange")}
              groupLabel={t("picker.calendar", { title: t("dashboard.dateRange") })}
              locale={locale}
              labels={mainLabels}
              value={[draft.startDate, draft.endDate]}
              onChange={(picked: DayPair) => onDraftChange(pickMainRange(draft, picked, limits))}
              month={mainMonth}
              onMonthChange={setMainMonth}
              maxDate={maxDate}
              years={years}
              fullWidth={stacked}
            />
            {showCompareCalendar ? (
              <RangeCalendar
                title={t("picker.compareTo")}
                groupLabel={t("picker.calendar", { title: t("picker.compareTo") })}
                locale={locale}
                labels={compareLabels}
                value={[draft.compareStartDate, draft.compareEndDate]}
                onChange={(picked: DayPair) => onDraftChange(pickCompareRange(draft, picked, limits))}
                month={compareMonth}
                onMonthChange={setCompareMonth}
                maxDate={compareMax}
                years={years}
                fullWidth={stacked}
              />
            ) : null}
          </Group>
        </DatesProvider>
      </Group>
      <Divider />
      <Group
        justify="flex-end"
        gap="sm"
        // On phones the panel scrolls; Apply and Cancel stay in reach at the bottom.
        style={stacked ? { position: "sticky", bottom: 0, zIndex: 2 } : undefined}
        bg={stacked ? "var(--mantine-color-body)" : undefined}
        py={stacked ? "sm" : undefined}
      >
        <Button variant="default" onClick={onCancel}>
          {t("picker.cancel")}
        </Button>
        <Button onClick={onApply} disabled={fromDraft(draft) === null}>
          {t("picker.apply")}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The date-range picker of docs/product.md §2/§4/§5: a button showing the applied range that opens range type,
 * calendar and Custom Compare; nothing changes until Apply. On phones it opens full screen.
 */
export function DateRangePicker({
  value,
  onChange,
  today,
  allowToday = false,
  withCompare = true,
  disabled = false,
}: DateRangePickerProps): JSX.Element {
  const { t, locale } = useI18n();
  const [opened, setOpened] = useState(false);
  const [draft, setDraft] = useState<DashboardDateRange>(() => toDraft(value));
  const isPhone = useMediaQuery("(max-width: 48em)") ?? false;
  const limits = useMemo<RangeLimits>(() => ({ today, allowToday }), [today, allowToday]);

  const open = () => {
    setDraft(toDraft(value));
    setOpened(true);
  };
  const close = () => setOpened(false);
  const apply = () => {
    const next = fromDraft(draft);
    if (!next) return;
    onChange(next);
    close();
  };

  const trigger = (
    <Button
      variant="default"
      aria-label={t("dashboard.dateRange")}
      aria-haspopup="dialog"
      aria-expanded={opened}
      onClick={() => (opened ? close() : open())}
      disabled={disabled}
      leftSection={<IconCalendar size={16} />}
      rightSection={<IconChevronDown size={14} />}
      styles={{ label: { fontWeight: 500 } }}
    >
      {rangeText(value.startDate, value.endDate, locale)}
    </Button>
  );

  const panel = (
    <PickerPanel
      draft={draft}
      onDraftChange={setDraft}
      limits={limits}
      withCompare={withCompare}
      onApply={apply}
      onCancel={close}
      stacked={isPhone}
    />
  );

  if (isPhone) {
    return (
      <>
        {trigger}
        <Modal opened={opened} onClose={close} title={t("dashboard.dateRange")} fullScreen>
          {opened ? panel : null}
        </Modal>
      </>
    );
  }

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      onDismiss={close}
      position="bottom-end"
      shadow="lg"
      radius="lg"
      trapFocus
      withinPortal
      middlewares={{ flip: true, shift: true }}
    >
      <Popover.Target>{trigger}</Popover.Target>
      <Popover.Dropdown p="lg" aria-label={t("picker.choose")}>
        {opened ? panel : null}
      </Popover.Dropdown>
    </Popover>
  );
}
