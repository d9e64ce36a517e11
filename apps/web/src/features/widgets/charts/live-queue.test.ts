import { describe, expect, it } from "vitest";
import {
  afterFirstDrawing,
  createLiveQueue,
  holdLiveCharts,
  IDLE_TIMEOUT_MS,
  liveChartsHeld,
  MAX_WAIT_MS,
} from "./live-queue";

/** A page whose idle callbacks, busy flag and clock the test drives. */
function fakePage() {
  const idle: Array<{ run: () => void; timeoutMs: number }> = [];
  const page = { busy: false, now: 0, idle };
  const queue = createLiveQueue({
    whenIdle: (run, timeoutMs) => idle.push({ run, timeoutMs }),
    busy: () => page.busy,
    now: () => page.now,
  });
  /** The browser goes idle once: the pending idle callback runs. */
  const goIdle = () => idle.shift()?.run();
  return { page, queue, goIdle };
}

/** A set-up the test finishes when it likes. */
function setUp(log: string[], name: string) {
  let finish = () => {};
  const run = () => {
    log.push(name);
    return new Promise<void>((resolve) => {
      finish = resolve;
    });
  };
  return { run, finish: () => finish() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("live-queue", () => {
  it("sets charts up one at a time, each in an idle callback, in the order they were drawn", async () => {
    const { page, queue, goIdle } = fakePage();
    const log: string[] = [];
    const first = setUp(log, "first");
    const second = setUp(log, "second");
    queue.add(first.run);
    queue.add(second.run);
    expect(log).toEqual([]);
    expect(page.idle).toHaveLength(1);
    expect(page.idle[0].timeoutMs).toBe(IDLE_TIMEOUT_MS);
    goIdle();
    expect(log).toEqual(["first"]);
    // The second waits for the first's set-up to finish, then for the next idle time.
    expect(page.idle).toHaveLength(0);
    first.finish();
    await settle();
    expect(log).toEqual(["first"]);
    goIdle();
    expect(log).toEqual(["first", "second"]);
    second.finish();
    await settle();
    expect(queue.waiting).toBe(0);
    expect(page.idle).toHaveLength(0);
  });

  it("waits while snapshots are being drawn, but not longer than MAX_WAIT_MS", () => {
    const { page, queue, goIdle } = fakePage();
    const log: string[] = [];
    page.busy = true;
    queue.add(setUp(log, "chart").run);
    goIdle();
    goIdle();
    expect(log).toEqual([]);
    expect(queue.waiting).toBe(1);
    page.now = MAX_WAIT_MS;
    goIdle();
    expect(log).toEqual(["chart"]);
  });

  it("runs once the page is no longer busy", () => {
    const { page, queue, goIdle } = fakePage();
    const log: string[] = [];
    page.busy = true;
    queue.add(setUp(log, "chart").run);
    goIdle();
    page.busy = false;
    goIdle();
    expect(log).toEqual(["chart"]);
  });

  it("a chart taken out of the queue (it went live under the pointer, or left the page) is not set up", async () => {
    const { queue, goIdle } = fakePage();
    const log: string[] = [];
    const remove = queue.add(setUp(log, "pointed at").run);
    const other = setUp(log, "other");
    queue.add(other.run);
    remove();
    goIdle();
    expect(log).toEqual(["other"]);
  });

  it("a set-up that throws or fails does not stop the queue", async () => {
    const { queue, goIdle } = fakePage();
    const log: string[] = [];
    queue.add(() => {
      throw new Error("no canvas");
    });
    queue.add(() => Promise.reject(new Error("chunk failed")));
    queue.add(setUp(log, "last").run);
    goIdle();
    await settle();
    goIdle();
    await settle();
    goIdle();
    expect(log).toEqual(["last"]);
  });

  it("holds: charts wait while any widget's data is on its way; a release counts once", () => {
    expect(liveChartsHeld()).toBe(false);
    const first = holdLiveCharts();
    const second = holdLiveCharts();
    first();
    first();
    expect(liveChartsHeld()).toBe(true);
    second();
    expect(liveChartsHeld()).toBe(false);
  });

  describe("afterFirstDrawing", () => {
    // Each idle time the page gives: whether widgets were still drawing then, and the clock.
    const cases: Array<{ name: string; idles: Array<{ busy: boolean; now: number }>; ranAt: number | null }> = [
      { name: "nothing drawing: at the first idle time", idles: [{ busy: false, now: 5 }], ranAt: 0 },
      {
        name: "waits for the drawing to end",
        idles: [
          { busy: true, now: 50 },
          { busy: true, now: 400 },
          { busy: false, now: 600 },
        ],
        ranAt: 2,
      },
      {
        name: "not past MAX_WAIT_MS however busy",
        idles: [
          { busy: true, now: 10 },
          { busy: true, now: MAX_WAIT_MS - 1 },
          { busy: true, now: MAX_WAIT_MS },
        ],
        ranAt: 2,
      },
      { name: "still drawing and within the wait: not yet", idles: [{ busy: true, now: 100 }], ranAt: null },
    ];
    it.each(cases)("$name", ({ idles, ranAt }) => {
      const page = { busy: false, now: 0 };
      const pending: Array<{ run: () => void; timeoutMs: number }> = [];
      let ran: number | null = null;
      afterFirstDrawing(
        { whenIdle: (run, timeoutMs) => pending.push({ run, timeoutMs }), busy: () => page.busy, now: () => page.now },
        () => {
          ran = index;
        },
      );
      let index = 0;
      for (; index < idles.length; index++) {
        Object.assign(page, idles[index]);
        const next = pending.shift();
        expect(next?.timeoutMs).toBe(IDLE_TIMEOUT_MS);
        next?.run();
        if (ran !== null) break;
      }
      expect(ran).toBe(ranAt);
      // Once run, nothing more is asked of the page.
      if (ranAt !== null) expect(pending).toEqual([]);
    });

    it("cancelled before the idle time: never runs", () => {
      const pending: Array<() => void> = [];
      let ran = false;
      const cancel = afterFirstDrawing(
        { whenIdle: (run) => pending.push(run), busy: () => false, now: () => 0 },
        () => {
          ran = true;
        },
      );
      cancel();
      for (const run of pending) run();
      expect(ran).toBe(false);
    });
  });
});
