import { describe, expect, it } from "vitest";
import { describeSchedule, nextRunAfter, type ReportSchedule } from "../dates/report-schedule";
import {
  joinRecipients,
  REPORT_MESSAGES,
  splitRecipients,
  type TAutomaticReportInput,
  ZAutomaticReportInput,
} from "./automatic-reports";

/** Field → messages of a failed parse, as the 422 body carries them. */
function errorsOf(input: unknown): Record<string, string[]> {
  const result = ZAutomaticReportInput.safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "general";
    errors[key] = [...(errors[key] ?? []), issue.message];
  }
  return errors;
}

const base = { dashboard_id: "12", recipients: "client@example.com" };

describe("ZAutomaticReportInput", () => {
  it("fills in the defaults of docs/product.md §9: 08:00, MONTH, FIRST_DAY, LAST_MONTH, preview on, PDF off", () => {
    const parsed: TAutomaticReportInput = ZAutomaticReportInput.parse(base);
    expect(parsed).toEqual({
      dashboard_id: "12",
      recipients: ["client@example.com"],
      period: "MONTH",
      detail: "FIRST_DAY",
      hour: 8,
      minute: 0,
      date_range: "LAST_MONTH",
      with_preview: true,
      with_pdf: false,
    });
    expect(parsed.timezone).toBeUndefined();
  });

  it("reads a weekly report sent as form text", () => {
    expect(
      ZAutomaticReportInput.parse({
        dashboard_id: 7,
        recipients: " a@example.com ,b@example.org;  c@example.net ",
        period: "WEEK",
        detail: "1",
        hour: "07",
        minute: "30",
        timezone: "europe/berlin",
        date_range: "LAST_WEEK",
        with_pdf: "1",
        with_preview: "0",
      }),
    ).toEqual({
      dashboard_id: "7",
      recipients: ["a@example.com", "b@example.org", "c@example.net"],
      period: "WEEK",
      detail: 1,
      hour: 7,
      minute: 30,
      timezone: "Europe/Berlin",
      date_range: "LAST_WEEK",
      with_pdf: true,
      with_preview: false,
    });
  });

  it("parses into a schedule the date rules take as it is, once the zone is known", () => {
    const parsed = ZAutomaticReportInput.parse({ ...base, period: "WEEK", detail: 1, hour: 7, minute: 30 });
    const schedule: ReportSchedule = { ...parsed, timezone: parsed.timezone ?? "UTC" };
    expect(describeSchedule(schedule)).toBe("Weekly on Monday at 07:30 (UTC)");
    expect(nextRunAfter(schedule, new Date("2026-11-23T07:00:00Z")).toISOString()).toBe("2026-11-23T07:30:00.000Z");
  });

  it.each([
    ["no recipients", { recipients: "" }, { recipients: [REPORT_MESSAGES.recipientsRequired] }],
    ["only commas", { recipients: " , ," }, { recipients: [REPORT_MESSAGES.recipientsRequired] }],
    ["recipients missing", { recipients: undefined }, { recipients: [REPORT_MESSAGES.recipientsRequired] }],
    [
      "six recipients",
      { recipients: "a@x.io,b@x.io,c@x.io,d@x.io,e@x.io,f@x.io" },
      { recipients: [REPORT_MESSAGES.recipientsMax] },
    ],
    [
      "a bad address",
      { recipients: "a@x.io, not-an-address" },
      { recipients: ["'not-an-address' is not a valid email address."] },
    ],
    ["hour 24", { hour: 24 }, { hour: [REPORT_MESSAGES.hour] }],
    ["hour -1", { hour: -1 }, { hour: [REPORT_MESSAGES.hour] }],
    ["hour 7.5", { hour: 7.5 }, { hour: [REPORT_MESSAGES.hour] }],
    ["hour emptied", { hour: "" }, { hour: [REPORT_MESSAGES.hour] }],
    ["hour text", { hour: "eight" }, { hour: [REPORT_MESSAGES.hour] }],
    ["minute 60", { minute: 60 }, { minute: [REPORT_MESSAGES.minute] }],
    ["minute -1", { minute: "-1" }, { minute: [REPORT_MESSAGES.minute] }],
    ["unknown period", { period: "DAY" }, { period: [REPORT_MESSAGES.period] }],
    ["weekday for a month", { period: "MONTH", detail: 1 }, { detail: [REPORT_MESSAGES.monthDetail] }],
    ["month detail for a week", { period: "WEEK", detail: "FIRST_DAY" }, { detail: [REPORT_MESSAGES.weekDetail] }],
    ["weekday 7", { period: "WEEK", detail: 7 }, { detail: [REPORT_MESSAGES.weekDetail] }],
    ["a week without a day", { period: "WEEK" }, { detail: [REPORT_MESSAGES.weekDetail] }],
    ["unknown range", { date_range: "LAST_YEAR" }, { date_range: [REPORT_MESSAGES.dateRange] }],
    ["unknown zone", { timezone: "Mars/Olympus" }, { timezone: [REPORT_MESSAGES.timezone] }],
    ["fixed offset", { timezone: "+02:00" }, { timezone: [REPORT_MESSAGES.timezone] }],
    ["no dashboard", { dashboard_id: undefined }, { dashboard_id: [REPORT_MESSAGES.dashboard] }],
    ["blank dashboard", { dashboard_id: " " }, { dashboard_id: [REPORT_MESSAGES.dashboard] }],
  ])("%s", (_name, change, expected) => {
    expect(errorsOf({ ...base, ...change })).toEqual(expected);
  });

  it("reports every bad field at once, the period's detail included", () => {
    expect(Object.keys(errorsOf({ recipients: "x", period: "WEEK", detail: "Monday", hour: 99, minute: 99 }))).toEqual(
      expect.arrayContaining(["dashboard_id", "recipients", "detail", "hour", "minute"]),
    );
  });
});

describe("splitRecipients / joinRecipients", () => {
  it.each([
    ["a@x.io, b@x.io", ["a@x.io", "b@x.io"]],
    ["a@x.io;b@x.io\nc@x.io", ["a@x.io", "b@x.io", "c@x.io"]],
    ["A@x.io, a@X.io, b@x.io", ["A@x.io", "b@x.io"]],
    [
      ["a@x.io", { email: " b@x.io " }],
      ["a@x.io", "b@x.io"],
    ],
    [" , ", []],
    [undefined, []],
  ])("%o → %o", (value, expected) => {
    expect(splitRecipients(value)).toEqual(expected);
  });

  it("joins with a comma and a space, and splits back", () => {
    const list = ["a@x.io", "b@x.io"];
    expect(joinRecipients(list)).toBe("a@x.io, b@x.io");
    expect(splitRecipients(joinRecipients(list))).toEqual(list);
  });
});
