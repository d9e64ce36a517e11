/**
 * A scheduler that runs every callback asked for before its task runs in that one task, in order: for
 * React Query's notifications (app/query-client.ts). Its default gives each query's notification a
 * `setTimeout` of its own, so answers that arrive together were drawn in as many React renders and
 * commits as there were queries; in one task React batches them into one (docs/decisions.md, "The
 * owner's dashboard: the cards before the rest of the screen"). A callback scheduled while the task
 * runs goes to the next task, as with the default.
 */
export function coalescingScheduler(later: (run: () => void) => void): (callback: () => void) => void {
  let queued: Array<() => void> = [];
  const flush = () => {
    const due = queued;
    queued = [];
    for (const callback of due) callback();
  };
  return (callback) => {
    queued.push(callback);
    if (queued.length === 1) later(flush);
  };
}

/** A timer: `set` calls `run` after `ms`; `clear` cancels what `set` returned. */
export interface GroupTimer {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/**
 * Answers to requests sent together, handed over in groups: an answer that comes while others are still
 * on their way waits for them up to `windowMs`, and all that came by then are handed over in one task
 * (the last one's arrival, or the window's end). The owner's dashboard's early widget answers
 * (features/widgets/early-data.ts): drawn in a few React commits instead of one each.
 */
export function arrivalGroups(
  windowMs: number,
  timer: GroupTimer = { set: (run, ms) => setTimeout(run, ms), clear: (handle) => clearTimeout(handle as number) },
) {
  let outstanding = 0;
  let due: Array<() => void> = [];
  let pending: unknown = null;
  const flush = () => {
    if (pending !== null) timer.clear(pending);
    pending = null;
    const handed = due;
    due = [];
    for (const hand of handed) hand();
  };
  const arrived = (hand: () => void) => {
    outstanding--;
    due.push(hand);
    if (outstanding === 0) flush();
    else if (pending === null) pending = timer.set(flush, windowMs);
  };
  return {
    /** `promise`'s outcome, handed over with its group. */
    join<T>(promise: Promise<T>): Promise<T> {
      outstanding++;
      return new Promise<T>((resolve, reject) => {
        promise.then(
          (value) => arrived(() => resolve(value)),
          (error: unknown) => arrived(() => reject(error)),
        );
      });
    },
  };
}
