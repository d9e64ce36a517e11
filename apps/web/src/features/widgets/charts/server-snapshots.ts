import { CHART_SNAPSHOTS_MAX_ITEMS, type TChartSnapshotsRequest, type TChartSnapshotsResponse } from "@app/core";
import { ApiError, call } from "../../../lib/api";
import type { ChartInput } from "./chart-common";
import type { ChartSize } from "./chart-svg";

/**
 * A member's first drawings of charts this browser keeps none of, made by the server (POST
 * /api/chart-snapshots) rather than by the page's snapshot worker: the server's ECharts is warm, while a
 * worker in a new browser loads ECharts and runs its cold code for every chart on the two cores the page
 * itself starts on (docs/decisions.md, "The owner's first drawings made by the server"). The charts asked
 * together (a commit's, the server-rendered page's) go as one request: it leaves once the asker's other
 * look-ups are over (`ready`), at most `BATCH_WAIT_MS` after the first chart. A chart the server
 * does not draw (an error for it, a failed request) is drawn by the worker as before, and once the server
 * says it cannot draw at all (503: the web build's server bundle is missing) every chart is.
 */
type Draw = (input: ChartInput, size: ChartSize) => Promise<string>;

/** One request to the server: up to CHART_SNAPSHOTS_MAX_ITEMS charts, answered in their order. */
export type AskServer = (items: TChartSnapshotsRequest["items"]) => Promise<TChartSnapshotsResponse["data"]>;

/**
 * Draws a chart on the server, or by `fallback` when the server does not draw it. `ready` settles once
 * the charts to go with this one have been asked (called only for the first chart of a request).
 */
export type DrawOnServer = (
  input: ChartInput,
  size: ChartSize,
  fallback: Draw,
  ready: () => Promise<void>,
) => Promise<string>;

interface Asked {
  input: ChartInput;
  size: ChartSize;
  resolve: (svg: string) => void;
  reject: (error: Error) => void;
}

/** The longest the first chart of a request waits for the others' look-ups (a stuck one must not hold it). */
export const BATCH_WAIT_MS = 2000;

/** A drawer over `ask`: the page's one is `drawOnServer`; tests give their own. */
export function createServerDrawer(ask: AskServer, batchWaitMs = BATCH_WAIT_MS): DrawOnServer {
  let serverDraws = true;
  let asked: Asked[] = [];

  function send(): void {
    const all = asked;
    asked = [];
    for (let start = 0; start < all.length; start += CHART_SNAPSHOTS_MAX_ITEMS) {
      const items = all.slice(start, start + CHART_SNAPSHOTS_MAX_ITEMS);
      ask(items.map(({ input, size }) => ({ input: { ...input }, size }))).then(
        (answers) =>
          items.forEach((item, index) => {
            const answer = answers[index];
            if (answer && "svg" in answer) item.resolve(answer.svg);
            else item.reject(new Error(answer?.error ?? "The server did not draw this chart."));
          }),
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 503) serverDraws = false;
          const failure = error instanceof Error ? error : new Error(String(error));
          for (const item of items) item.reject(failure);
        },
      );
    }
  }

  /** The first chart of a request: it leaves when `ready` settles or the wait is up, whichever is first. */
  function sendWhen(ready: Promise<void>): void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((settle) => {
      timer = setTimeout(settle, batchWaitMs);
    });
    void Promise.race([ready, waited]).then(() => {
      clearTimeout(timer);
      // At the end of that task, so charts asked in it still go along.
      setTimeout(send, 0);
    });
  }

  return (input, size, fallback, ready) => {
    if (!serverDraws) return fallback(input, size);
    const drawn = new Promise<string>((resolve, reject) => {
      if (asked.length === 0) sendWhen(ready());
      asked.push({ input, size, resolve, reject });
    });
    return drawn.catch(() => fallback(input, size));
  };
}

export const drawOnServer = createServerDrawer(
  async (items) => (await call("chartSnapshots", { body: { items } })).data,
);
