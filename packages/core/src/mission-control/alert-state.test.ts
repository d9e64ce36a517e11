import { describe, expect, it } from "vitest";
import {
  type AlertState,
  type AlertTransition,
  alertDedupeKey,
  isSnoozed,
  nextAlertState,
  snoozeEndedSince,
  snoozeUntil,
} from "./alert-state";

const START = new Date("2026-11-20T06:00:00.000Z");
const dayAfterStart = (days: number) => new Date(START.getTime() + days * 24 * 60 * 60 * 1000);

/** Runs daily evaluations ('F' failing, 'P' passing) and collects the status and transition after each. */
function run(verdicts: string): { statuses: string; transitions: AlertTransition[]; state: AlertState | null } {
  let state: AlertState | null = null;
  const statuses: string[] = [];
  const transitions: AlertTransition[] = [];
  [...verdicts].forEach((verdict, day) => {
    const next = nextAlertState(state, verdict === "F", dayAfterStart(day));
    state = next.state;
    statuses.push(state === null ? "-" : state.status === "open" ? "O" : "R");
    transitions.push(next.transition);
  });
  return { statuses: statuses.join(""), transitions, state };
}

describe("nextAlertState", () => {
  it.each([
    ["P", "-", "never failing never opens"],
    ["F", "O", "opens on the first failure"],
    ["FP", "OO", "one pass is not enough to resolve"],
    ["FPP", "OOR", "two passes in a row resolve"],
    ["FPFP", "OOOO", "a failure between passes restarts the count"],
    ["FPFPP", "OOOOR", "…and two new passes resolve"],
    ["FFFPP", "OOOOR", "repeated failures keep one open alert"],
    ["FPPP", "OORR", "a resolved alert stays resolved while passing"],
    ["FPPF", "OORO", "a new failure after resolving opens a new alert"],
  ])("%s → %s (%s)", (verdicts, statuses) => {
    expect(run(verdicts).statuses).toBe(statuses);
  });

  it("reports each transition once", () => {
    expect(run("FFPPFP").transitions).toEqual(["opened", null, null, "resolved", "opened", null]);
  });

  it("keeps the opening time while open and stamps the resolution", () => {
    const { state } = run("FFPP");
    expect(state).toEqual({
      status: "resolved",
      openedAt: START.toISOString(),
      resolvedAt: dayAfterStart(3).toISOString(),
      passes: 2,
    });
  });

  it("opens a new alert, with a new opening time, after a resolved one", () => {
    const { state } = run("FPPF");
    expect(state).toMatchObject({ status: "open", openedAt: dayAfterStart(3).toISOString(), resolvedAt: null });
  });

  it.each<[string, boolean, string, AlertTransition]>([
    ["a pass resolves at once", false, "resolved", "resolved"],
    ["a failure keeps it open", true, "open", null],
  ])("after a snooze ends, %s", (_name, failing, status, transition) => {
    const open: AlertState = { status: "open", openedAt: START.toISOString(), resolvedAt: null, passes: 0 };
    const next = nextAlertState(open, failing, dayAfterStart(8), true);
    expect(next.state?.status).toBe(status);
    expect(next.transition).toBe(transition);
    expect(next.state?.openedAt).toBe(START.toISOString());
  });
});

describe("alertDedupeKey", () => {
  it("is the same for the same domain and rule, and differs otherwise", () => {
    expect(alertDedupeKey(12, "clicks-drop")).toBe(alertDedupeKey("12", "clicks-drop"));
    expect(alertDedupeKey(12, "clicks-drop")).not.toBe(alertDedupeKey(13, "clicks-drop"));
    expect(alertDedupeKey(12, "clicks-drop")).not.toBe(alertDedupeKey(12, "sessions-drop"));
  });
});

describe("snooze", () => {
  it("lasts exactly seven days", () => {
    expect(snoozeUntil(new Date("2026-03-25T10:30:00.000Z")).toISOString()).toBe("2026-04-01T10:30:00.000Z");
  });

  const until = "2026-11-27T06:00:00.000Z";
  it.each<[string, Date | string | null, string, boolean]>([
    ["not snoozed", null, "2026-11-20T00:00:00.000Z", false],
    ["before the end", until, "2026-11-27T05:59:59.999Z", true],
    ["at the end", until, "2026-11-27T06:00:00.000Z", false],
    ["after the end", until, "2026-12-01T00:00:00.000Z", false],
    ["a Date end", new Date(until), "2026-11-26T00:00:00.000Z", true],
    ["an unreadable end", "soon", "2026-11-26T00:00:00.000Z", false],
  ])("isSnoozed: %s", (_name, snoozedUntil, now, expected) => {
    expect(isSnoozed(snoozedUntil, new Date(now))).toBe(expected);
  });

  it("a snooze started now hides alerts for the week and not after", () => {
    const now = new Date("2026-11-20T09:00:00.000Z");
    const end = snoozeUntil(now);
    expect(isSnoozed(end, dayAfterStart(6))).toBe(true);
    expect(isSnoozed(end, new Date(end.getTime() + 1))).toBe(false);
  });

  it.each<[string, string | null, string | null, string, boolean]>([
    ["never snoozed", null, "2026-11-26T06:00:00.000Z", "2026-11-28T06:00:00.000Z", false],
    ["still snoozed", until, "2026-11-26T06:00:00.000Z", "2026-11-27T05:00:00.000Z", false],
    ["ended since the last evaluation", until, "2026-11-26T06:00:00.000Z", "2026-11-28T06:00:00.000Z", true],
    ["ended before the last evaluation", until, "2026-11-27T07:00:00.000Z", "2026-11-28T06:00:00.000Z", false],
    ["ended and never evaluated", until, null, "2026-11-28T06:00:00.000Z", true],
  ])("snoozeEndedSince: %s", (_name, snoozedUntil, lastEvaluatedAt, now, expected) => {
    expect(snoozeEndedSince(snoozedUntil, lastEvaluatedAt, new Date(now))).toBe(expected);
  });
});
