import type { ChartInput } from "./chart-common";
import type { ChartPart } from "./chart-parts";
import type { ChartSize } from "./chart-svg";
import { holdLiveCharts } from "./live-queue";
import { keepSnapshot, keptSnapshot, snapshotKey } from "./snapshot-store";

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

/**
 * How many workers draw snapshots. A member's dashboard (warmSnapshots) draws its charts side by side,
 * one worker per core left to the page's main thread, at most four: one worker draws the owner's 16
 * charts one after another (~0.3 s of its thread after the data is in), the last card's wait. Each
 * worker loads ECharts once (~0.1 s of CPU more per extra worker), so where no core is left (two
 * cores: bench (b)'s machine) it stays one; measured there under load, a second worker only added CPU.
 * A public view keeps one: its phone budget (bench/README.md (d)) was measured with one.
 */
const PARALLEL = Math.min(4, Math.max(1, (globalThis.navigator?.hardwareConcurrency ?? 2) - 1));
let poolSize = 1;
/** The parts a started worker loads at once (warmSnapshots), before its first drawing is asked for. */
let warmParts: ChartPart[] | null = null;

interface PooledWorker {
  worker: Worker;
  /** Snapshots asked of this worker and not yet answered. */
  busy: number;
}

let pool: PooledWorker[] = [];
let broken = false;
let nextId = 0;
const waiting = new Map<
  number,
  { resolve: (svg: string) => void; reject: (error: Error) => void; from: PooledWorker }
>();

function failAll(error: Error) {
  broken = true;
  for (const { reject } of waiting.values()) reject(error);
  waiting.clear();
  for (const { worker } of pool) worker.terminate();
  pool = [];
}

function startWorker(): PooledWorker {
  const pooled: PooledWorker = {
    worker: new Worker(new URL("./chart-svg.worker.ts", import.meta.url), { type: "module" }),
    busy: 0,
  };
  if (warmParts) pooled.worker.postMessage({ warm: warmParts } satisfies SnapshotRequest);
  pooled.worker.onmessage = (event: MessageEvent<SnapshotReply>) => {
    const reply = event.data;
    const pending = waiting.get(reply.id);
    if (!pending) return;
    waiting.delete(reply.id);
    pending.from.busy -= 1;
    if ("svg" in reply) pending.resolve(reply.svg);
    else pending.reject(new Error(reply.error));
  };
  // A worker's script failed to load or run: every chart draws live instead.
  pooled.worker.onerror = (event) => {
    event.preventDefault();
    failAll(new Error(event.message || "The chart worker failed."));
  };
  return pooled;
}

/** Every worker of the pool, started on first use. */
function snapshotWorkers(): PooledWorker[] {
  while (pool.length < poolSize) pool.push(startWorker());
  return pool;
}

/** The worker with the fewest snapshots waiting (the first of them on a tie). */
function leastBusy(): PooledWorker {
  return snapshotWorkers().reduce((best, pooled) => (pooled.busy < best.busy ? pooled : best));
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
 * A member's dashboard, while its data is on the way (early-widgets.ts): the module that has the server
 * draw what this browser keeps no drawing of is loaded now, and the parts the charts need are noted for a
 * worker, which starts only for a chart the server does not draw (`drawInWorker`). A reload that finds
 * every drawing kept never loads ECharts off the main thread (docs/decisions.md, "The owner's dashboard:
 * the snapshot worker only for what is missing"), and now neither does a first visit
 * ("The owner's first drawings made by the server").
 */
export function warmSnapshots(parts: ChartPart[]): void {
  if (!snapshotsAvailable()) return;
  poolSize = PARALLEL;
  warmParts = parts;
  void import("./server-snapshots").catch(() => undefined);
}

/**
 * The SVG of the chart `input` draws at `size`; rejects when it cannot be drawn. With `keep` (a member's
 * dashboard) the drawing this browser kept of the same input and size is used when there is one, else the
 * server's (server-snapshots.ts; the worker's when the server does not draw it), and it is kept
 * (snapshot-store.ts). Without (a public view), the worker draws it.
 */
export function chartSnapshot(input: ChartInput, size: ChartSize, keep = false): Promise<string> {
  if (!snapshotsAvailable()) return Promise.reject(new Error("Chart snapshots are not available."));
  // Until it is drawn, the live charts and the rest of the owner's screen wait (live-queue.ts).
  const release = holdLiveCharts();
  const drawn = keep ? keptOrServer(input, size) : drawInWorker(input, size);
  drawn.then(release, release);
  return drawn;
}

/**
 * Kept-drawing look-ups still running (`keptOrServer`): the charts they do not find go to the server in
 * one request once none is left. Each look-up (a hash, a Cache Storage read, a module) settles in a task
 * of its own, so a request sent at the end of one task took some of a commit's charts and left the rest
 * to a second request.
 */
let lookingUp = 0;
let onNoneLookingUp: Array<() => void> = [];

function lookupsSettled(): Promise<void> {
  return lookingUp === 0 ? Promise.resolve() : new Promise((resolve) => onNoneLookingUp.push(resolve));
}

function startLookup(): () => void {
  lookingUp += 1;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    lookingUp -= 1;
    if (lookingUp > 0) return;
    const waiters = onNoneLookingUp;
    onNoneLookingUp = [];
    for (const resolve of waiters) resolve();
  };
}

/** A member's chart: this browser's kept drawing, else the server's (kept for next time). */
async function keptOrServer(input: ChartInput, size: ChartSize): Promise<string> {
  const endLookup = startLookup();
  try {
    const key = await snapshotKey(input, size);
    const kept = await keptSnapshot(key);
    if (kept !== null) return kept;
    const { drawOnServer } = await import("./server-snapshots");
    // Asked (synchronously) before this look-up ends, so the request waits for it.
    const drawing = drawOnServer(input, size, drawInWorker, lookupsSettled);
    endLookup();
    const svg = await drawing;
    keepSnapshot(key, svg);
    return svg;
  } finally {
    endLookup();
  }
}

function drawInWorker(input: ChartInput, size: ChartSize): Promise<string> {
  const id = ++nextId;
  return new Promise<string>((resolve, reject) => {
    try {
      const from = leastBusy();
      waiting.set(id, { resolve, reject, from });
      from.busy += 1;
      from.worker.postMessage({ id, input, size } satisfies SnapshotRequest);
    } catch (error) {
      const pending = waiting.get(id);
      if (pending) pending.from.busy -= 1;
      waiting.delete(id);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/**
 * The layer a snapshot's SVG goes in: over the chart's area, letting pointer events through to it. A
 * member's page makes the same layer itself for the drawings it carries (the server's
 * page-data/drawings-in-page.ts, `DRAWING_SCRIPT`): a change here is a change there.
 */
export function snapshotLayer(element: HTMLElement): HTMLDivElement {
  const layer = document.createElement("div");
  layer.className = "echart-snapshot";
  layer.setAttribute("aria-hidden", "true");
  layer.style.cssText = "position:absolute;inset:0;pointer-events:none;";
  element.appendChild(layer);
  return layer;
}
