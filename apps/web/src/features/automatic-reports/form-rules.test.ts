import { REPORT_MESSAGES } from "@app/core";
import { describe, expect, it } from "vitest";
import {
  canSchedule,
  defaultReportValues,
  type ReportFormValues,
  reportFormErrors,
  scheduleFromValues,
} from "./form-rules";

const base = (patch: Partial<ReportFormValues> = {}): ReportFormValues => ({
  ...defaultReportValues("Europe/Berlin"),
  recipients: "ceo@client.example",
  ...patch,
});

describe("the automatic report form (docs/product.md §5, §9)", () => {
  it("starts at 08:00, monthly on the first day, last month, preview on, PDF off, in the user's zone", () => {
    expect(defaultReportValues("America/New_York")).toEqual({
      recipients: "",
      period: "MONTH",
      detail: "FIRST_DAY",
      hour: "8",
      minute: "00",
      timezone: "America/New_York",
      date_range: "LAST_MONTH",
      with_preview: true,
      with_pdf: false,
    });
  });

  it.each<[string, Partial<ReportFormValues>, Record<string, string>]>([
    ["valid", {}, {}],
    ["no recipients", { recipients: "" }, { recipients: REPORT_MESSAGES.recipientsRequired }],
    [
      "a bad address",
      { recipients: "ceo@client.example, nope" },
      { recipients: REPORT_MESSAGES.recipientInvalid("nope") },
    ],
    [
      "six recipients",
      { recipients: "a@x.io, b@x.io, c@x.io, d@x.io, e@x.io, f@x.io" },
      { recipients: REPORT_MESSAGES.recipientsMax },
    ],
    ["hour 24", { hour: "24" }, { hour: REPORT_MESSAGES.hour }],
    ["hour empty", { hour: "" }, { hour: REPORT_MESSAGES.hour }],
    ["minute 60", { minute: "60" }, { minute: REPORT_MESSAGES.minute }],
    ["minute 7.5", { minute: "7.5" }, { minute: REPORT_MESSAGES.minute }],
    ["weekly on Sunday", { period: "WEEK", detail: "0" }, {}],
    ["weekly without a day", { period: "WEEK", detail: "FIRST_DAY" }, { detail: REPORT_MESSAGES.weekDetail }],
  ])("%s", (_name, patch, errors) => {
    expect(reportFormErrors("d1", base(patch))).toEqual(errors);
  });

  it.each<[string, Partial<ReportFormValues>, number, boolean, boolean]>([
    ["a valid new report", {}, 0, false, true],
    ["no recipients", { recipients: " " }, 0, false, false],
    ["an invalid time", { hour: "25" }, 0, false, false],
    ["the fifth place taken", {}, 5, false, false],
    ["editing one of five", {}, 5, true, true],
  ])("schedule button with %s", (_name, patch, count, editing, enabled) => {
    expect(canSchedule(base(patch), count, editing)).toBe(enabled);
  });

  it("reads the schedule as the user types, or none while the time is invalid", () => {
    expect(scheduleFromValues(base({ period: "WEEK", detail: "1", hour: "9", minute: "30" }))).toEqual({
      period: "WEEK",
      detail: 1,
      hour: 9,
      minute: 30,
      timezone: "Europe/Berlin",
    });
    expect(scheduleFromValues(base({ minute: "75" }))).toBeNull();
  });
});
