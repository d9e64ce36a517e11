/**
 * An alert's life across evaluations (docs/decisions.md, "Mission Control alerts"). It opens on the first failing evaluation, because
 * a client's traffic falling is worth knowing the same morning. It resolves only after
 * PASSES_TO_RESOLVE passing evaluations in a row, because a metric hovering at its threshold (−19 %,
 * −21 %, −19 %…) would otherwise open and resolve every day and mail the agency each time.
 */
export const PASSES_TO_RESOLVE = 2;

/** How long "snooze for a week" hides a domain's alerts (docs/product.md §1). */
export const SNOOZE_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface AlertState {
  status: "open" | "resolved";
  /** ISO instant of the failing evaluation that opened the alert. */
  openedAt: string;
  resolvedAt: string | null;
  /** Passing evaluations in a row since the last failing one. */
  passes: number;
}

/** What an evaluation did to the alert, for the realtime push and the digest; null when nothing changed. */
export type AlertTransition = "opened" | "resolved" | null;

export interface NextAlertState {
  /** The alert after this evaluation; null when there is none (never opened). */
  state: AlertState | null;
  transition: AlertTransition;
}

/**
 * The one identity of an alert: at most one open alert exists per (domain, rule), so the server can
 * upsert on this key instead of checking first, and two evaluations racing cannot open two alerts.
 */
export function alertDedupeKey(domainId: string | number, ruleId: string): string {
  return `${domainId}:${ruleId}`;
}

/**
 * The alert after one evaluation of its rule. `previous` is the latest alert for the (domain, rule),
 * open or resolved, or null. With `afresh` (the domain's snooze ended since the last evaluation, see
 * `snoozeEndedSince`) the evaluation decides alone: the passes counted before the snooze no longer
 * matter, so one pass resolves an open alert and a failure keeps it open.
 */
export function nextAlertState(
  previous: AlertState | null,
  failing: boolean,
  now: Date,
  afresh = false,
): NextAlertState {
  const at = now.toISOString();
  if (previous === null || previous.status === "resolved") {
    // A resolved alert is history: a new failure opens a new alert rather than reopening the old one.
    if (!failing) return { state: previous, transition: null };
    return { state: { status: "open", openedAt: at, resolvedAt: null, passes: 0 }, transition: "opened" };
  }
  if (failing) {
    return { state: previous.passes === 0 ? previous : { ...previous, passes: 0 }, transition: null };
  }
  const passes = previous.passes + 1;
  if (afresh || passes >= PASSES_TO_RESOLVE) {
    return { state: { ...previous, status: "resolved", resolvedAt: at, passes }, transition: "resolved" };
  }
  return { state: { ...previous, passes }, transition: null };
}

function instant(value: Date | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const time = (typeof value === "string" ? new Date(value) : value).getTime();
  return Number.isNaN(time) ? null : time;
}

/** The end of a snooze started at `now`: exactly SNOOZE_DAYS × 24 h later, whatever the time zone. */
export function snoozeUntil(now: Date): Date {
  return new Date(now.getTime() + SNOOZE_DAYS * DAY_MS);
}

/**
 * Whether a domain's alerts are hidden at `now`. Evaluations keep running while snoozed (data keeps
 * flowing, and the state is right the moment the snooze ends); only showing and mailing stop.
 */
export function isSnoozed(snoozedUntil: Date | string | null | undefined, now: Date): boolean {
  const until = instant(snoozedUntil);
  return until !== null && now.getTime() < until;
}

/**
 * Whether a snooze ended between the previous evaluation and `now`, so this evaluation decides afresh
 * (the `afresh` of `nextAlertState`). An un-snooze sets the end to the moment of the un-snooze.
 */
export function snoozeEndedSince(
  snoozedUntil: Date | string | null | undefined,
  lastEvaluatedAt: Date | string | null | undefined,
  now: Date,
): boolean {
  const until = instant(snoozedUntil);
  if (until === null || until > now.getTime()) return false;
  const last = instant(lastEvaluatedAt);
  return last === null || last < until;
}
