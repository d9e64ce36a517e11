import { describe, expect, it } from "vitest";
import { createLiveQueue, holdLiveCharts, IDLE_TIMEOUT_MS, liveChartsHeld, MAX_WAIT_MS } from "./live-queue";

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
});
