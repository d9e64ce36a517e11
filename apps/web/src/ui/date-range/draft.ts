import {
  canApply,
  type DashboardDateRange,
  defaultCompareRange,
  effectiveCompareRange,
  isValidDay,
  normaliseRange,
  type RangeLimits,
  type RangeType,
  switchRangeType,
} from "@app/core";
import type { DateRangeValue } from "./DateRangePicker";

/** A pair of calendar days as the range calendars hold them while a person is picking. */
export type DayPair = [string | null, string | null];

/** The compare range a draft should show when custom compare is off: the default one, once the main range is set. */
function withDefaultCompare(draft: DashboardDateRange): DashboardDateRange {
  if (draft.customCompare) return draft;
  const compare = draft.startDate && draft.endDate ? defaultCompareRange(draft.startDate, draft.endDate) : null;
  return { ...draft, compareStartDate: compare?.startDate ?? null, compareEndDate: compare?.endDate ?? null };
}

/** The editable draft of a value: compare dates filled in (the default ones unless custom compare is on). */
export function toDraft(value: DateRangeValue): DashboardDateRange {
  const customCompare = value.customCompare && isValidDay(value.compareStartDate) && isValidDay(value.compareEndDate);
  return withDefaultCompare({ ...value, customCompare });
}

/** The value to apply, or null while a needed date is missing (docs/product.md §5: Apply only when all dates are set). */
export function fromDraft(draft: DashboardDateRange): DateRangeValue | null {
  if (!canApply(draft) || !draft.startDate || !draft.endDate) return null;
  return {
    rangeType: draft.rangeType,
    startDate: draft.startDate,
    endDate: draft.endDate,
    compareStartDate: draft.customCompare ? draft.compareStartDate : null,
    compareEndDate: draft.customCompare ? draft.compareEndDate : null,
    customCompare: draft.customCompare,
  };
}

/** docs/product.md §4: a preset recomputes the dates and turns custom compare off; Custom keeps what is shown. */
export function chooseRangeType(draft: DashboardDateRange, type: RangeType, limits: RangeLimits): DashboardDateRange {
  return withDefaultCompare(switchRangeType(draft, type, limits));
}

/** Days picked on the main calendar make the range Custom; swapping and clamping follow docs/product.md §5. */
export function pickMainRange(
  draft: DashboardDateRange,
  [start, end]: DayPair,
  limits: RangeLimits,
): DashboardDateRange {
  return withDefaultCompare(normaliseRange({ ...draft, rangeType: "custom", startDate: start, endDate: end }, limits));
}

/** Days picked on the compare calendar; the compare range never extends beyond the main range's end. */
export function pickCompareRange(
  draft: DashboardDateRange,
  [start, end]: DayPair,
  limits: RangeLimits,
): DashboardDateRange {
  return normaliseRange({ ...draft, compareStartDate: start, compareEndDate: end }, limits);
}

/** Custom Compare on starts from the default comparison so Apply stays possible; off returns to it. */
export function setCustomCompare(draft: DashboardDateRange, on: boolean): DashboardDateRange {
  if (!on) return withDefaultCompare({ ...draft, customCompare: false });
  const compare = effectiveCompareRange(draft);
  return {
    ...draft,
    customCompare: true,
    compareStartDate: compare?.startDate ?? null,
    compareEndDate: compare?.endDate ?? null,
  };
}
