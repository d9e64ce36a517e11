import { comparisonLabel, rangeText } from "@app/core";
import { ActionIcon, Box, Text, Tooltip } from "@mantine/core";
import { CopyUrlButton, DateRangePicker, type DateRangeValue } from "../../../ui/date-range";

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
  // A custom comparison is named where the range is (spec §2); the default one needs no words.
  const compared =
    range.customCompare && range.compareStartDate && range.compareEndDate
      ? comparisonLabel(range.compareStartDate, range.compareEndDate, Number(range.endDate.slice(0, 4)))
      : null;
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
          {hideDateSelector || compared ? (
            <Text className="dash-subtitle" data-testid="dashboard-range-note">
              {[hideDateSelector ? rangeText(range.startDate, range.endDate) : null, compared]
                .filter(Boolean)
                .join(" · ")}
            </Text>
          ) : null}
        </Box>
      </div>
      <div className="dash-header-actions">
        {hideDateSelector ? null : <DateRangePicker value={range} onChange={onRange} today={today} />}
        <CopyUrlButton value={range} />
        {clientImage ? <img className="dash-client-logo" src={clientImage} alt="Client logo" /> : null}
      </div>
    </Box>
  );
}
