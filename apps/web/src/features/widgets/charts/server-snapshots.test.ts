import { CHART_SNAPSHOTS_MAX_ITEMS } from "@app/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../../lib/api";
import type { ChartInput } from "./chart-common";
import { type AskServer, createServerDrawer } from "./server-snapshots";

const size = { width: 400, height: 200 };
const chart = (title: string) => ({ title }) as unknown as ChartInput;
const titleOf = (input: Record<string, unknown>) => String(input.title);

/** A server that draws every chart as `<svg>{title}</svg>`, recording each request's titles. */
function server(answer?: (title: string) => { svg: string } | { error: string }) {
  const requests: string[][] = [];
  const ask: AskServer = async (items) => {
    requests.push(items.map((item) => titleOf(item.input)));
    return items.map((item) => answer?.(titleOf(item.input)) ?? { svg: `<svg>${titleOf(item.input)}</svg>` });
  };
  return { ask, requests };
}

const worker = vi.fn(
  async (input: ChartInput) => `<svg>worker ${titleOf(input as unknown as Record<string, unknown>)}</svg>`,
);
/** A task boundary, as each kept-drawing look-up of a page ends in a task of its own. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  worker.mockClear();
  vi.useRealTimers();
});

describe("drawOnServer", () => {
  it("sends the charts asked in separate tasks as one request once the look-ups are over", async () => {
    const { ask, requests } = server();
    const draw = createServerDrawer(ask);
    let settle = () => {};
    const lookups = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const first = draw(chart("sessions"), size, worker, () => lookups);
    await nextTask();
    const second = draw(chart("users"), size, worker, () => lookups);
    await nextTask();
    expect(requests).toEqual([]);
    settle();
    expect(await Promise.all([first, second])).toEqual(["<svg>sessions</svg>", "<svg>users</svg>"]);
    expect(requests).toEqual([["sessions", "users"]]);
    expect(worker).not.toHaveBeenCalled();
  });

  it("sends after the wait when a look-up never ends, and leaves no timer once sent", async () => {
    vi.useFakeTimers();
    const { ask, requests } = server();
    const draw = createServerDrawer(ask, 2000);
    const stuck = () => new Promise<void>(() => {});
    const drawn = draw(chart("sessions"), size, worker, stuck);
    await vi.advanceTimersByTimeAsync(1999);
    expect(requests).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    // The send itself, at the end of that task.
    await vi.advanceTimersByTimeAsync(1);
    expect(await drawn).toBe("<svg>sessions</svg>");

    const soon = draw(chart("users"), size, worker, () => Promise.resolve());
    await vi.advanceTimersByTimeAsync(1);
    expect(await soon).toBe("<svg>users</svg>");
    // The 2-second cap of a request that left at once is cleared, not left pending.
    expect(vi.getTimerCount()).toBe(0);
    expect(requests).toEqual([["sessions"], ["users"]]);
  });

  it("splits a request at the most charts one may carry", async () => {
    const { ask, requests } = server();
    const draw = createServerDrawer(ask);
    const titles = Array.from({ length: CHART_SNAPSHOTS_MAX_ITEMS + 3 }, (_, index) => `chart ${index}`);
    const drawn = await Promise.all(titles.map((title) => draw(chart(title), size, worker, () => Promise.resolve())));
    expect(drawn).toEqual(titles.map((title) => `<svg>${title}</svg>`));
    expect(requests.map((request) => request.length)).toEqual([CHART_SNAPSHOTS_MAX_ITEMS, 3]);
  });

  it("has the worker draw a chart the server refused, and every chart once the server cannot draw at all", async () => {
    const refusing = server((title) =>
      title === "radar" ? { error: "Unknown chart type." } : { svg: `<svg>${title}</svg>` },
    );
    const draw = createServerDrawer(refusing.ask);
    const ready = () => Promise.resolve();
    expect(
      await Promise.all([draw(chart("line"), size, worker, ready), draw(chart("radar"), size, worker, ready)]),
    ).toEqual(["<svg>line</svg>", "<svg>worker radar</svg>"]);

    let asked = 0;
    const unavailable = createServerDrawer(async () => {
      asked += 1;
      throw new ApiError(503, { message: "Charts are not drawn here." });
    });
    expect(await unavailable(chart("line"), size, worker, ready)).toBe("<svg>worker line</svg>");
    expect(await unavailable(chart("bar"), size, worker, ready)).toBe("<svg>worker bar</svg>");
    expect(asked).toBe(1);
  });
});
