import { describe, expect, it } from "vitest";
import { arrivalGroups, coalescingScheduler } from "./coalesce";

describe("coalescingScheduler", () => {
  // Each step schedules callbacks (by name) or runs the next task; `tasks` is what each task ran.
  const cases: Array<{ name: string; steps: Array<string[] | "task">; tasks: string[][] }> = [
    {
      name: "callbacks asked together run in one task, in order",
      steps: [["a", "b", "c"], "task"],
      tasks: [["a", "b", "c"]],
    },
    { name: "nothing asked: no task", steps: [], tasks: [] },
    {
      name: "asked after a task ran: a task of their own",
      steps: [["a"], "task", ["b", "c"], "task"],
      tasks: [["a"], ["b", "c"]],
    },
  ];
  it.each(cases)("$name", ({ steps, tasks }) => {
    const pending: Array<() => void> = [];
    const ran: string[][] = [];
    let current: string[] = [];
    const schedule = coalescingScheduler((run) => pending.push(run));
    for (const step of steps) {
      if (step === "task") {
        current = [];
        pending.shift()?.();
        ran.push(current);
      } else for (const name of step) schedule(() => current.push(name));
    }
    expect(pending).toEqual([]);
    expect(ran).toEqual(tasks);
  });

  it("a callback scheduled while the task runs goes to the next task", () => {
    const pending: Array<() => void> = [];
    const log: string[] = [];
    const schedule = coalescingScheduler((run) => pending.push(run));
    schedule(() => {
      log.push("first");
      schedule(() => log.push("later"));
    });
    pending.shift()?.();
    expect(log).toEqual(["first"]);
    expect(pending).toHaveLength(1);
    pending.shift()?.();
    expect(log).toEqual(["first", "later"]);
  });
});

describe("arrivalGroups", () => {
  /** Requests the test answers, a timer it fires, and the order answers are handed over in. */
  function setUp(count: number) {
    const timers: Array<{ run: () => void; ms: number; cleared: boolean }> = [];
    const groups = arrivalGroups(50, {
      set: (run, ms) => {
        const entry = { run, ms, cleared: false };
        timers.push(entry);
        return entry;
      },
      clear: (handle) => {
        (handle as { cleared: boolean }).cleared = true;
      },
    });
    const handed: string[] = [];
    const answer: Array<{ resolve: (value: string) => void; reject: (error: Error) => void }> = [];
    for (let index = 0; index < count; index++) {
      const request = new Promise<string>((resolve, reject) => answer.push({ resolve, reject }));
      groups.join(request).then(
        (value) => handed.push(value),
        (error: Error) => handed.push(`failed ${error.message}`),
      );
    }
    const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
    const fire = () => {
      const next = timers.find((entry) => !entry.cleared);
      if (next) {
        next.cleared = true;
        next.run();
      }
    };
    return { timers, handed, answer, tick, fire };
  }

  it("an answer waits while others are on their way; the last one's arrival hands all over", async () => {
    const { timers, handed, answer, tick } = setUp(3);
    answer[1].resolve("b");
    answer[0].resolve("a");
    await tick();
    expect(handed).toEqual([]);
    expect(timers.map((entry) => entry.ms)).toEqual([50]);
    answer[2].reject(new Error("c"));
    await tick();
    expect(handed).toEqual(["b", "a", "failed c"]);
    expect(timers[0].cleared).toBe(true);
  });

  it("at the window's end what came is handed over; the rest form the next group", async () => {
    const { handed, answer, tick, fire, timers } = setUp(3);
    answer[0].resolve("a");
    await tick();
    fire();
    await tick();
    expect(handed).toEqual(["a"]);
    answer[1].resolve("b");
    await tick();
    expect(handed).toEqual(["a"]);
    expect(timers).toHaveLength(2);
    answer[2].resolve("c");
    await tick();
    expect(handed).toEqual(["a", "b", "c"]);
  });

  it("a lone request is handed over on arrival", async () => {
    const { handed, answer, tick, timers } = setUp(1);
    answer[0].resolve("a");
    await tick();
    expect(handed).toEqual(["a"]);
    expect(timers).toEqual([]);
  });
});
