import { ActionIcon, Box, Group, NativeSelect, Stack, Text } from "@mantine/core";
import { DatePicker } from "@mantine/dates";
import dayjs from "dayjs";
import type { DayPair } from "./draft";

/** First day of the month `day` ('yyyy-MM-dd') falls in; calendars are positioned by it. */
export function monthOf(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

const monthNames = new Map<string, string[]>();
/** The twelve months' names in `locale` ("January", "Januar"), for the month dropdown; kept per locale. */
function monthNamesIn(locale: string): string[] {
  let names = monthNames.get(locale);
  if (!names) {
    const format = new Intl.DateTimeFormat(locale, { month: "long", timeZone: "UTC" });
    names = Array.from({ length: 12 }, (_, index) => format.format(Date.UTC(2000, index, 1)));
    monthNames.set(locale, names);
  }
  return names;
}

/** Accessible names of a calendar's header controls; the compare calendar needs its own. */
export interface CalendarControlLabels {
  previous: string;
  next: string;
  month: string;
  year: string;
}

export const MAIN_CALENDAR_LABELS: CalendarControlLabels = {
  previous: "Previous month",
  next: "Next month",
  month: "Month",
  year: "Year",
};

export const COMPARE_CALENDAR_LABELS: CalendarControlLabels = {
  previous: "Previous compare month",
  next: "Next compare month",
  month: "Compare month",
  year: "Compare year",
};

interface RangeCalendarProps {
  /** Heading above the calendar. */
  title: string;
  /** The calendar group's name ('Date range calendar'). */
  groupLabel: string;
  /** The dashboard's locale for the month names (lib/i18n.tsx); weekday names come from DatesProvider. */
  locale: string;
  labels?: CalendarControlLabels;
  value: DayPair;
  onChange: (value: DayPair) => void;
  /** First day of the displayed month. */
  month: string;
  onMonthChange: (month: string) => void;
  /** Latest selectable day, 'yyyy-MM-dd'. */
  maxDate: string;
  /** Years of the year dropdown (docs/product.md §9: core yearOptions). */
  years: number[];
  fullWidth?: boolean;
}

function ChevronIcon({ direction }: { direction: "left" | "right" }) {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      aria-hidden="true"
    >
      <path d={direction === "left" ? "m15 6-6 6 6 6" : "m9 6 6 6-6 6"} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * One month of a range calendar with its own header: previous/next buttons and month and year
 * dropdowns (the year list is the product's, not Mantine's default century). Weeks start on Monday.
 */
export function RangeCalendar({
  title,
  groupLabel,
  locale,
  labels = MAIN_CALENDAR_LABELS,
  value,
  onChange,
  month,
  onMonthChange,
  maxDate,
  years,
  fullWidth,
}: RangeCalendarProps) {
  const first = `${years[0]}-01-01`;
  const last = monthOf(maxDate) < `${years.at(-1)}-12-01` ? monthOf(maxDate) : `${years.at(-1)}-12-01`;
  const shown = dayjs(month);
  const go = (target: string) => onMonthChange(target < first ? first : target > last ? last : target);
  const shift = (months: number) => go(shown.add(months, "month").format("YYYY-MM-DD"));

  return (
    <Stack gap={6} role="group" aria-label={groupLabel} w={fullWidth ? "100%" : undefined}>
      <Text size="xs" fw={600} tt="uppercase" c="dimmed" style={{ letterSpacing: 0.5 }}>
        {title}
      </Text>
      <Group gap={4} wrap="nowrap" justify="space-between">
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={labels.previous}
          onClick={() => shift(-1)}
          disabled={month <= first}
        >
          <ChevronIcon direction="left" />
        </ActionIcon>
        <Group gap={4} wrap="nowrap">
          <NativeSelect
            size="xs"
            aria-label={labels.month}
            value={String(shown.month())}
            onChange={(event) => go(shown.month(Number(event.currentTarget.value)).format("YYYY-MM-DD"))}
            data={monthNamesIn(locale).map((label, index) => ({
              value: String(index),
              label,
              disabled: shown.month(index).format("YYYY-MM-DD") > last,
            }))}
          />
          <NativeSelect
            size="xs"
            aria-label={labels.year}
            value={String(shown.year())}
            onChange={(event) => go(shown.year(Number(event.currentTarget.value)).format("YYYY-MM-DD"))}
            data={years.map((year) => ({
              value: String(year),
              label: String(year),
              disabled: `${year}-01-01` > last,
            }))}
          />
        </Group>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={labels.next}
          onClick={() => shift(1)}
          disabled={month >= last}
        >
          <ChevronIcon direction="right" />
        </ActionIcon>
      </Group>
      <Box>
        <DatePicker
          type="range"
          allowSingleDateInRange
          value={value}
          onChange={(picked) => onChange([picked[0], picked[1]])}
          date={month}
          onDateChange={(date) => go(monthOf(date))}
          maxDate={maxDate}
          minDate={first}
          maxLevel="month"
          firstDayOfWeek={1}
          fullWidth={fullWidth}
          styles={{ calendarHeader: { display: "none" } }}
        />
      </Box>
    </Stack>
  );
}
