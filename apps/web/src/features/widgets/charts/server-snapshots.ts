import { CHART_SNAPSHOTS_MAX_ITEMS } from "@app/core";
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

interface Asked {
  input: ChartInput;
  size: ChartSize;
  resolve: (svg: string) => void;
  reject: (error: Error) => void;
}

/** The longest the first chart of a request waits for the others' look-ups (a stuck one must not hold it). */
const BATCH_WAIT_MS = 2000;

let serverDraws = true;
let asked: Asked[] = [];

function send(): void {
  const all = asked;
  asked = [];
  for (let start = 0; start < all.length; start += CHART_SNAPSHOTS_MAX_ITEMS) {
    const items = all.slice(start, start + CHART_SNAPSHOTS_MAX_ITEMS);
    call("chartSnapshots", { body: { items: items.map(({ input, size }) => ({ input: { ...input }, size })) } }).then(
      ({ data: answers }) =>
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

/** The chart's SVG drawn by the server, or by `fallback` (the worker) when the server does not draw it. */
export function drawOnServer(
  input: ChartInput,
  size: ChartSize,
  fallback: Draw,
  ready: () => Promise<void> = () => Promise.resolve(),
): Promise<string> {
  if (!serverDraws) return fallback(input, size);
  const drawn = new Promise<string>((resolve, reject) => {
    // Sent once the charts asked together have all been asked, at the end of that task.
    if (asked.length === 0) {
      const waited = new Promise((settle) => setTimeout(settle, BATCH_WAIT_MS));
      void Promise.race([ready(), waited]).then(() => setTimeout(send, 0));
    }
    asked.push({ input, size, resolve, reject });
  });
  return drawn.catch(() => fallback(input, size));
}
