import { Worker } from "node:worker_threads";
import type { ServerRenderBundle } from "@app/core";
import type { App } from "../../infra/http";

/**
 * What the chart drawer needs of the web build's server bundle; `alongside` when its drawings are made
 * off the event loop (this thread), so that many may be asked for at once.
 */
export type ChartDrawing = Pick<ServerRenderBundle, "drawChartSvg"> & { alongside?: boolean };

/**
 * The worker's code, plain JavaScript (it runs the same under the tests' TypeScript runner and built):
 * the server bundle evaluated as `loadCommonJs` in server-render.ts does, its chart code warmed, then one
 * drawing per message.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { createRequire } = require("node:module");
const entry = workerData.entry;
const wrapper = vm.runInThisContext(
  "(function (exports, require, module, __filename, __dirname) {" + fs.readFileSync(entry, "utf8") + "\\n})",
  { filename: entry },
);
const loaded = { exports: {} };
wrapper(loaded.exports, createRequire(entry), loaded, entry, path.dirname(entry));
const bundle = loaded.exports;
bundle.warmChartDrawing().catch(() => undefined);
parentPort.on("message", ({ id, input, size }) => {
  bundle.drawChartSvg(input, size).then(
    (svg) => parentPort.postMessage({ id, svg }),
    (error) => parentPort.postMessage({ id, error: String((error && error.message) || error) }),
  );
});
`;

type Answer = { id: number; svg: string } | { id: number; error: string };

/**
 * A member's chart drawings made on a thread of their own (docs/decisions.md, "Chart drawings off the
 * event loop"). Drawn on the server's one thread, the 16 drawings of each member's first visit ran
 * between everyone else's requests, and the pages rendered after them took about twice as long.
 * The thread starts on the first drawing (or at once with `eager`, as a started server warms its chart
 * code) and ends with the app; a drawing asked after that is refused. Should the thread fail to start or
 * die, the drawings are made on the event loop by `fallback`, the bundle the server already holds.
 */
export function chartDrawingThread(
  app: App,
  entry: string,
  fallback: () => Promise<ChartDrawing | null>,
  eager: boolean,
): () => Promise<ChartDrawing | null> {
  let worker: Worker | null = null;
  let failed = false;
  let closed = false;
  let nextId = 0;
  const waiting = new Map<number, { resolve: (svg: string) => void; reject: (error: Error) => void }>();

  const fail = (error: Error) => {
    if (failed) return;
    failed = true;
    worker = null;
    app.log.error({ err: error }, "the chart drawing thread stopped: charts are drawn on the event loop");
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  };

  const start = (): Worker => {
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { entry }, execArgv: [] });
    started.on("message", (answer: Answer) => {
      const pending = waiting.get(answer.id);
      if (!pending) return;
      waiting.delete(answer.id);
      if ("svg" in answer) pending.resolve(answer.svg);
      else pending.reject(new Error(answer.error));
    });
    started.on("error", fail);
    started.on("exit", (code) => {
      if (worker === started) fail(new Error(`exited with code ${code}`));
    });
    // Idle, it does not keep the process alive; drawings in flight are answered by then or rejected.
    started.unref();
    return started;
  };

  const thread: ChartDrawing = {
    alongside: true,
    drawChartSvg(input, size) {
      // A drawing drawn ahead may come due after the app closed: no thread is started for it.
      if (closed) return Promise.reject(new Error("The server is closing."));
      worker ??= start();
      const id = ++nextId;
      return new Promise<string>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker?.postMessage({ id, input, size });
      });
    },
  };

  app.addHook("onClose", async () => {
    closed = true;
    const stopping = worker;
    worker = null;
    for (const pending of waiting.values()) pending.reject(new Error("The server is closing."));
    waiting.clear();
    await stopping?.terminate();
  });
  if (eager) worker = start();

  return async () => {
    if (failed) return fallback();
    // No bundle (the web app is not built, or it failed to load): nothing to start a thread for.
    if ((await fallback()) === null) return null;
    return failed ? fallback() : thread;
  };
}
