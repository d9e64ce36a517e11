import type { DashboardDateRange } from "@app/core";
import { describe, expect, it } from "vitest";
import type { DateRangeValue } from "./DateRangePicker";
import { chooseRangeType, fromDraft, pickCompareRange, pickMainRange, setCustomCompare, toDraft } from "./draft";

const limits = { today: "2026-03-18" };

const monthly: DateRangeValue = {
  rangeType: "monthly",
  startDate: "2026-03-01",
  endDate: "2026-03-17",
  compareStartDate: null,
  compareEndDate: null,
  customCompare: false,
};

describe("date-range picker draft (docs/product.md §4, §5)", () => {
  it("fills the default compare range into the draft and leaves it out of the value", () => {
    const draft = toDraft(monthly);
    expect([draft.compareStartDate, draft.compareEndDate]).toEqual(["2026-02-12", "2026-02-28"]);
    expect(fromDraft(draft)).toEqual(monthly);
  });

  it("ignores compare dates of a value whose custom compare is off", () => {
    const draft = toDraft({ ...monthly, compareStartDate: "2025-03-01", compareEndDate: "2025-03-17" });
    expect(draft.compareStartDate).toBe("2026-02-12");
  });

  it("picking days makes the range Custom, swaps a reversed pair and clamps to yesterday", () => {
    const draft = pickMainRange(toDraft(monthly), ["2026-03-30", "2026-03-05"], limits);
    expect(draft).toMatchObject({ rangeType: "custom", startDate: "2026-03-05", endDate: "2026-03-17" });
    expect([draft.compareStartDate, draft.compareEndDate]).toEqual(["2026-02-20", "2026-03-04"]);
  });

  it("allows today when asked", () => {
    const draft = pickMainRange(toDraft(monthly), ["2026-03-10", "2026-03-30"], { ...limits, allowToday: true });
    expect(draft.endDate).toBe("2026-03-18");
  });

  it("cannot apply while the end is not picked yet", () => {
    const draft = pickMainRange(toDraft(monthly), ["2026-03-05", null], limits);
    expect(draft.endDate).toBeNull();
    expect(fromDraft(draft)).toBeNull();
  });

  it("a preset recomputes the dates and turns custom compare off", () => {
    const custom = setCustomCompare(toDraft(monthly), true);
    const draft = chooseRangeType(custom, "last_7_days", limits);
    expect(draft).toMatchObject({ rangeType: "last_7_days", startDate: "2026-03-11", endDate: "2026-03-17" });
    expect(draft.customCompare).toBe(false);
    expect(fromDraft(draft)?.compareStartDate).toBeNull();
  });

  it("custom compare starts from the default comparison and is kept within the main range's end", () => {
    const on = setCustomCompare(toDraft(monthly), true);
    expect([on.compareStartDate, on.compareEndDate]).toEqual(["2026-02-12", "2026-02-28"]);
    const picked = pickCompareRange(on, ["2026-03-10", "2026-03-25"], limits);
    expect([picked.compareStartDate, picked.compareEndDate]).toEqual(["2026-03-10", "2026-03-17"]);
    expect(fromDraft(picked)).toMatchObject({
      customCompare: true,
      compareStartDate: "2026-03-10",
      compareEndDate: "2026-03-17",
    });
  });

  it("a half-picked custom compare blocks Apply", () => {
    const on = setCustomCompare(toDraft(monthly), true);
    const half: DashboardDateRange = pickCompareRange(on, ["2026-01-05", null], limits);
    expect(fromDraft(half)).toBeNull();
  });

  it("switching custom compare off returns to the default comparison", () => {
    const on = pickCompareRange(setCustomCompare(toDraft(monthly), true), ["2025-03-01", "2025-03-17"], limits);
    const off = setCustomCompare(on, false);
    expect([off.compareStartDate, off.compareEndDate]).toEqual(["2026-02-12", "2026-02-28"]);
    expect(fromDraft(off)?.customCompare).toBe(false);
  });
});
