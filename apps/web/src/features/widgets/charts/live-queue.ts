/**
 * When a member's charts become live. On the owner's dashboard a chart is first drawn as its snapshot
 * (chart-snapshots.ts, the worker's SVG), which makes its card ready; the live ECharts chart (tooltips,
 * legend toggles) is set up afterwards, one chart at a time, each when the page is idle and no snapshot
 * is still being drawn: ECharts' set-up and first drawing is 50–100 ms of main-thread CPU per chart, and
 * sixteen of them before the first frame were most of the dashboard's time (docs/decisions.md, "The
 * owner's dashboard: snapshots first, live charts when idle"). A chart the reader points at goes live at
 * once, outside this queue (EChart.tsx).
 */

/** What the queue needs from the page: an idle callback, and whether drawing is still going on. */
export interface LiveQueueHost {
  /** Calls `run` when the browser is idle, or after `timeoutMs` at most. */
  whenIdle(run: () => void, timeoutMs: number): void;
  /** True while first drawings (snapshots) are still being made: live charts wait for them. */
  busy(): boolean;
  /** Milliseconds, monotonic. */
  now(): number;
}

export interface LiveQueue {
  /** Queues a chart's set-up; it runs once idle. The returned function takes it out of the queue. */
  add(setUp: () => Promise<unknown>): () => void;
  /** Charts still waiting (for tests and the bench's profile). */
  readonly waiting: number;
}

/**
 * The longest a queued chart waits for the drawing to settle (a widget whose answer never comes must not
 * keep every chart a snapshot); the browser's idle callback is still awaited.
 */
export const MAX_WAIT_MS = 3_000;
/** An idle callback's deadline: set-ups then run even when the page never goes idle. */
export const IDLE_TIMEOUT_MS = 1_000;

export function createLiveQueue(host: LiveQueueHost): LiveQueue {
  const queue: Array<{ setUp: () => Promise<unknown>; since: number }> = [];
  let running = false;
  let asked = false;

  const ask = () => {
    if (asked || running || queue.length === 0) return;
    asked = true;
    host.whenIdle(step, IDLE_TIMEOUT_MS);
  };

  function step() {
    asked = false;
    const next = queue[0];
    if (!next || running) return;
    // Snapshots still being drawn: their cards come first; asked again at the next idle time.
    if (host.busy() && host.now() - next.since < MAX_WAIT_MS) {
      ask();
      return;
    }
    queue.shift();
    running = true;
    const done = () => {
      running = false;
      ask();
    };
    let setting: Promise<unknown>;
    try {
      setting = next.setUp();
    } catch {
      done();
      return;
    }
    setting.then(done, done);
  }

  return {
    add(setUp) {
      const entry = { setUp, since: host.now() };
      queue.push(entry);
      ask();
      return () => {
        const index = queue.indexOf(entry);
        if (index >= 0) queue.splice(index, 1);
      };
    },
    get waiting() {
      return queue.length;
    },
  };
}

/**
 * Widgets whose data is on its way or being drawn, and snapshots being drawn (`holdLiveCharts`): live
 * charts wait for them.
 */
let holds = 0;

/**
 * Holds every chart's live set-up while a widget's data is on its way or being drawn (its card's first
 * drawing comes first); the returned function releases it, once.
 */
export function holdLiveCharts(): () => void {
  holds++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds--;
  };
}

/** Whether some widget holds the live charts (holdLiveCharts). */
export function liveChartsHeld(): boolean {
  return holds > 0;
}

/**
 * Runs `run` once the cards' first drawing is done: at the first idle time when no widget's data is on
 * its way or being drawn (`busy` false), or after MAX_WAIT_MS at most. The owner's dashboard mounts
 * what is not its cards (sidebar, sharing controls, messages, insights, alerts' bells) then, so the
 * main thread draws the answers first (docs/decisions.md, "The owner's dashboard: the cards before the
 * rest of the screen"). Returns a function that cancels it.
 */
export function afterFirstDrawing(host: LiveQueueHost, run: () => void): () => void {
  const since = host.now();
  let cancelled = false;
  const step = () => {
    if (cancelled) return;
    if (host.busy() && host.now() - since < MAX_WAIT_MS) host.whenIdle(step, IDLE_TIMEOUT_MS);
    else run();
  };
  host.whenIdle(step, IDLE_TIMEOUT_MS);
  return () => {
    cancelled = true;
  };
}

/** The browser as a LiveQueueHost: `requestIdleCallback` (a timer where missing). */
export function browserHost(busy: () => boolean): LiveQueueHost {
  return {
    whenIdle(run, timeoutMs) {
      if (typeof requestIdleCallback === "function") requestIdleCallback(run, { timeout: timeoutMs });
      else setTimeout(run, 50);
    },
    busy,
    now: () => performance.now(),
  };
}

/** The page's queue: `requestIdleCallback` (a timer where missing), busy while `busy()` says so. */
export function browserLiveQueue(busy: () => boolean): LiveQueue {
  return createLiveQueue(browserHost(busy));
}

/**
 * afterFirstDrawing on this page: once no widget's data is on its way or being drawn and no snapshot is
 * being drawn (holdLiveCharts).
 */
export function afterCardsDrawn(run: () => void): () => void {
  return afterFirstDrawing(browserHost(liveChartsHeld), run);
}
