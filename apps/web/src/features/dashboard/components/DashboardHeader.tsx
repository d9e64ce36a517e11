import { comparisonLabel, defaultCompareRange, rangeText } from "@app/core";
import type { Translator } from "@app/core/i18n/translator";
import { Box, Button, Text } from "@mantine/core";
import { lazy, type ReactNode } from "react";
import { useI18n } from "../../../lib/i18n";
import type { DateRangeValue } from "../../../ui/date-range";
import { IconCalendar, IconChevronDown, IconLink } from "../../../ui/icons";
import { LazyPart } from "../../../ui/LazyPart";
import { useIdle } from "../../../ui/use-idle";
import { OnboardingAnchor, onboardingEvent } from "../../onboarding";

// The picker (calendars, popover, @mantine/dates) and Copy URL (its tooltip's positioning code) load
// after the dashboard has drawn; until then the same buttons stand in their places, so nothing shifts.
// Their boundaries are lazy parts (ui/LazyPart.tsx): a server-rendered page is live once they are adopted.
const DateRangePicker = lazy(async () => ({
  default: (await import("../../../ui/date-range/DateRangePicker")).DateRangePicker,
}));
const CopyUrlButton = lazy(async () => ({
  default: (await import("../../../ui/date-range/CopyUrlButton")).CopyUrlButton,
}));
const OpenSidebarButton = lazy(async () => ({ default: (await import("./OpenSidebarButton")).OpenSidebarButton }));

function PickerPlaceholder({ range }: { range: DateRangeValue }) {
  const { t, locale } = useI18n();
  return (
    <Button
      variant="default"
      // Not usable yet (tests and assistive technology wait for the real picker); looks the same.
      aria-disabled="true"
      aria-label={t("dashboard.dateRange")}
      leftSection={<IconCalendar size={16} />}
      rightSection={<IconChevronDown size={14} />}
      styles={{ label: { fontWeight: 500 } }}
    >
      {rangeText(range.startDate, range.endDate, locale)}
    </Button>
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
  /** The sidebar is open or not as the screen's width says (dashboard.css): so is its button hidden or not. */
  sidebarByWidth?: boolean;
  /** The owner's sharing controls (members only). */
  sharing?: ReactNode;
  /** The PDF button (everyone but the print view). */
  pdf?: ReactNode;
  /** No Copy URL (the embedded view, whose address carries its signed token). */
  hideCopyUrl?: boolean;
  /** Print: no controls; the period and its comparison written out under the name (the PDF's first page). */
  print?: boolean;
}

/** "Oct 1 – Oct 31, 2026 · vs Sep 1 – Sep 30": what a printed report covers, default comparison included. */
function printedPeriod(range: DateRangeValue, i18n: Translator): string {
  const year = Number(range.endDate.slice(0, 4));
  const compare =
    range.customCompare && range.compareStartDate && range.compareEndDate
      ? { startDate: range.compareStartDate, endDate: range.compareEndDate }
      : defaultCompareRange(range.startDate, range.endDate);
  return `${rangeText(range.startDate, range.endDate, i18n.locale)} · ${comparisonLabel(compare.startDate, compare.endDate, year, i18n)}`;
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
  sidebarByWidth = false,
  sharing,
  hideCopyUrl = false,
  print = false,
  pdf,
}: Props) {
  // A custom comparison is named where the range is (docs/product.md §2); the default one needs no words.
  const i18n = useI18n();
  const compared =
    range.customCompare && range.compareStartDate && range.compareEndDate
      ? comparisonLabel(range.compareStartDate, range.compareEndDate, Number(range.endDate.slice(0, 4)), i18n)
      : null;
  const idle = useIdle();
  if (print) {
    return (
      <Box component="header" className="dash-header">
        <div className="dash-header-brand">
          {logoImage ? <img className="dash-logo" src={logoImage} alt="Logo" /> : null}
          <Box style={{ minWidth: 0 }}>
            <h1 className="dash-title">{name}</h1>
            <Text className="dash-subtitle" data-testid="print-period">
              {printedPeriod(range, i18n)}
            </Text>
          </Box>
        </div>
        {clientImage ? (
          <div className="dash-header-actions">
            <img className="dash-client-logo" src={clientImage} alt="Client logo" />
          </div>
        ) : null}
      </Box>
    );
  }
  const copyPlaceholder = (
    <Button variant="default" aria-disabled="true" leftSection={<IconLink size={16} />}>
      {i18n.t("dashboard.copyUrl")}
    </Button>
  );
  return (
    <Box component="header" className="dash-header">
      <div className="dash-header-brand">
        {onOpenSidebar ? (
          <span className="dash-open-sidebar" data-sidebar={sidebarByWidth ? "auto" : undefined}>
            <LazyPart fallback={null}>
              <OpenSidebarButton onClick={onOpenSidebar} />
            </LazyPart>
          </span>
        ) : null}
        {logoImage ? <img className="dash-logo" src={logoImage} alt="Logo" /> : null}
        <Box style={{ minWidth: 0 }}>
          <h1 className="dash-title">{name}</h1>
          {hideDateSelector || compared ? (
            <Text className="dash-subtitle" data-testid="dashboard-range-note">
              {[hideDateSelector ? rangeText(range.startDate, range.endDate, i18n.locale) : null, compared]
                .filter(Boolean)
                .join(" · ")}
            </Text>
          ) : null}
        </Box>
      </div>
      <div className="dash-header-actions">
        {hideDateSelector ? null : (
          <OnboardingAnchor anchor="date-range-picker">
            <LazyPart fallback={<PickerPlaceholder range={range} />}>
              {idle ? (
                <DateRangePicker value={range} onChange={onRange} today={today} />
              ) : (
                <PickerPlaceholder range={range} />
              )}
            </LazyPart>
          </OnboardingAnchor>
        )}
        {hideCopyUrl ? null : (
          // Copying the link is how onboarding's "share" step is done (docs/product.md §4), so its hint hangs here.
          <OnboardingAnchor anchor="share-menu">
            <LazyPart fallback={copyPlaceholder}>
              {idle ? <CopyUrlButton value={range} onCopied={() => onboardingEvent("url_copied")} /> : copyPlaceholder}
            </LazyPart>
          </OnboardingAnchor>
        )}
        {pdf}
        {sharing}
        {clientImage ? <img className="dash-client-logo" src={clientImage} alt="Client logo" /> : null}
      </div>
    </Box>
  );
}
