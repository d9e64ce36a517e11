import type { ChartInput } from "./chart-common";
import type { ChartPart } from "./chart-parts";
import type { ChartSize } from "./chart-svg";

/**
 * Chart snapshots: the first drawing of a chart on a public view is an SVG made by ECharts in a worker
 * (chart-svg.worker.ts), not on the page's main thread. ECharts' first `setOption` on a page is one
 * long task of its cold code (70–110 ms of CPU; four times that on a phone), the largest single cost of
 * opening a shared dashboard on a phone (docs/decisions.md, "Public view: charts drawn in a worker first"). The snapshot is the same option drawn by the same
 * library, so it reads the same; the live (canvas) chart takes over when the reader points at it, for
 * tooltips and legend toggles (EChart.tsx). docs/decisions.md, "Public view: charts drawn in a worker".
 */
export type SnapshotRequest =
  | { id: number; input: ChartInput; size: ChartSize }
  /** Load these parts now, before the first chart asks (the owner's dashboard, while its data is on the way). */
  | { warm: ChartPart[] };

export type SnapshotReply = { id: number; svg: string } | { id: number; error: string };

let worker: Worker | null = null;
let broken = false;
let nextId = 0;
const waiting = new Map<number, { resolve: (svg: string) => void; reject: (error: Error) => void }>();

function failAll(error: Error) {
  broken = true;
  for (const { reject } of waiting.values()) reject(error);
  waiting.clear();
  worker?.terminate();
  worker = null;
}

function snapshotWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL("./chart-svg.worker.ts", import.meta.url), { type: "module" });
  worker.onmessage = (event: MessageEvent<SnapshotReply>) => {
    const reply = event.data;
    const pending = waiting.get(reply.id);
    if (!pending) return;
    waiting.delete(reply.id);
    if ("svg" in reply) pending.resolve(reply.svg);
    else pending.reject(new Error(reply.error));
  };
  // The worker's script failed to load or run: every chart draws live instead.
  worker.onerror = (event) => {
    event.preventDefault();
    failAll(new Error(event.message || "The chart worker failed."));
  };
  return worker;
}

/** Whether snapshots can be drawn here (module workers; false once the worker has failed). */
export function snapshotsAvailable(): boolean {
  return !broken && typeof Worker !== "undefined";
}

/** Whether snapshots asked for are still being drawn (live charts wait for them: live-queue.ts). */
export function snapshotsPending(): boolean {
  return waiting.size > 0;
}

/**
 * Starts the worker and has it load echarts and these parts while the dashboard's data is on the way,
 * so the first snapshot does not wait for the worker's code (a member's dashboard: early-widgets.ts).
 */
export function warmSnapshots(parts: ChartPart[]): void {
  if (!snapshotsAvailable()) return;
  try {
    snapshotWorker().postMessage({ warm: parts } satisfies SnapshotRequest);
  } catch {
    // The first chart asks again, and draws live if the worker cannot.
  }
}

/** The SVG of the chart `input` draws at `size`; rejects when the worker cannot draw it. */
export function chartSnapshot(input: ChartInput, size: ChartSize): Promise<string> {
  if (!snapshotsAvailable()) return Promise.reject(new Error("Chart snapshots are not available."));
  const id = ++nextId;
  return new Promise<string>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    try {
      snapshotWorker().postMessage({ id, input, size } satisfies SnapshotRequest);
    } catch (error) {
      waiting.delete(id);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/** The layer a snapshot's SVG goes in: over the chart's area, letting pointer events through to it. */
export function snapshotLayer(element: HTMLElement): HTMLDivElement {
  const layer = document.createElement("div");
  layer.className = "echart-snapshot";
  layer.setAttribute("aria-hidden", "true");
  layer.style.cssText = "position:absolute;inset:0;pointer-events:none;";
  element.appendChild(layer);
  return layer;
}
