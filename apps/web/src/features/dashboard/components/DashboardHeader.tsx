import { rangeText } from "@app/core";
import { ActionIcon, Box, Button, Text, Tooltip } from "@mantine/core";
import { lazy, Suspense } from "react";
import { CopyUrlButton, type DateRangeValue } from "../../../ui/date-range";
import { IconCalendar, IconChevronDown } from "../../../ui/icons";

// The picker (calendars, popover, @mantine/dates) loads after the dashboard has drawn; until then the
// same button stands in its place, so the header never shifts.
const DateRangePicker = lazy(async () => ({
  default: (await import("../../../ui/date-range/DateRangePicker")).DateRangePicker,
}));

function PickerPlaceholder({ range }: { range: DateRangeValue }) {
  return (
    <Button
      variant="default"
      aria-label="Date range"
      leftSection={<IconCalendar size={16} />}
      rightSection={<IconChevronDown size={14} />}
      styles={{ label: { fontWeight: 500 } }}
    >
      {rangeText(range.startDate, range.endDate)}
    </Button>
  );
}

function IconSidebar({ size = 18 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M9 4v16" />
    </svg>
  );
}

interface Props {
  name: string;
  logoImage: string | null;
  clientImage: string | null;
  range: DateRangeValue;
  today: string;
  onRange: (range: DateRangeValue) => void;
  /** The dashboard hides its picker from viewers (editors still see it). */
  hideDateSelector: boolean;
  /** Shown when the sidebar can be opened (it is closed and the viewer has one). */
  onOpenSidebar?: () => void;
}

/** Logo, name, date-range picker with Copy URL, and the client's logo. */
export function DashboardHeader({
  name,
  logoImage,
  clientImage,
  range,
  today,
  onRange,
  hideDateSelector,
  onOpenSidebar,
}: Props) {
  return (
    <Box component="header" className="dash-header">
      <div className="dash-header-brand">
        {onOpenSidebar ? (
          <Tooltip label="Open sidebar">
            <ActionIcon variant="default" size="lg" onClick={onOpenSidebar} aria-label="Open sidebar">
              <IconSidebar />
            </ActionIcon>
          </Tooltip>
        ) : null}
        {logoImage ? <img className="dash-logo" src={logoImage} alt="Logo" /> : null}
        <Box style={{ minWidth: 0 }}>
          <h1 className="dash-title">{name}</h1>
          {hideDateSelector ? <Text className="dash-subtitle">{rangeText(range.startDate, range.endDate)}</Text> : null}
        </Box>
      </div>
      <div className="dash-header-actions">
        {hideDateSelector ? null : (
          <Suspense fallback={<PickerPlaceholder range={range} />}>
            <DateRangePicker value={range} onChange={onRange} today={today} />
          </Suspense>
        )}
        <CopyUrlButton value={range} />
        {clientImage ? <img className="dash-client-logo" src={clientImage} alt="Client logo" /> : null}
      </div>
    </Box>
  );
}
