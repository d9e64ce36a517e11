import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { threadId } from "node:worker_threads";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import type { App } from "../../infra/http";
import { type ChartDrawing, chartDrawingThread } from "./chart-worker";

/**
 * A stand-in for the web build's server bundle: each drawing says which thread made it; `refuse` is
 * refused as the drawing code refuses an input, `hold` is never answered, and `die` ends the thread it
 * runs on.
 */
const BUNDLE = `
const { threadId } = require("node:worker_threads");
exports.warmChartDrawing = async () => {};
exports.drawChartSvg = async (input, size) => {
  if (input.die) process.exit(3);
  if (input.hold) return new Promise(() => {});
  if (input.refuse) throw new Error("This chart cannot be drawn.");
  return "<svg>" + input.label + " " + size.width + " on thread " + threadId + "</svg>";
};
`;

const size = { width: 400, height: 300 };
let folder: string | null = null;
let app: App | null = null;

/** A server app, a bundle file, and the main thread's own copy of the bundle as the fallback. */
function setUp(options: { bundle?: boolean; eager?: boolean } = {}) {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "chart-worker-"));
  const entry = path.join(folder, "server-entry.cjs");
  fs.writeFileSync(entry, BUNDLE);
  const onMainThread: ChartDrawing = {
    drawChartSvg: async (input) => `<svg>${String(input.label)} on thread ${threadId}</svg>`,
  };
  app = Fastify({ logger: false }) as unknown as App;
  const drawing = chartDrawingThread(
    app,
    entry,
    async () => (options.bundle === false ? null : onMainThread),
    options.eager ?? false,
  );
  return { drawing };
}

afterEach(async () => {
  await app?.close();
  app = null;
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
  folder = null;
});

describe("chart drawings on a thread of their own", () => {
  it("draws on another thread than the server's, each drawing answered as its own", async () => {
    const drawer = await setUp().drawing();
    const drawn = await Promise.all(["a", "b", "c"].map((label) => drawer?.drawChartSvg({ label }, size)));
    expect(drawn).toEqual(["a", "b", "c"].map((label) => expect.stringMatching(`<svg>${label} 400 on thread [1-9]`)));
    expect(drawn[0]).not.toContain(`on thread ${threadId}<`);
  });

  it("passes a refusal on with the drawing code's words, and draws the next one", async () => {
    const drawer = await setUp({ eager: true }).drawing();
    await expect(drawer?.drawChartSvg({ refuse: true }, size)).rejects.toThrow("This chart cannot be drawn.");
    expect(await drawer?.drawChartSvg({ label: "after" }, size)).toMatch(/^<svg>after 400 on thread [1-9]/);
  });

  it("starts nothing without a bundle (the web app not built)", async () => {
    expect(await setUp({ bundle: false }).drawing()).toBeNull();
  });

  it("a thread that dies fails its drawing; later ones are drawn on the server's thread", async () => {
    const { drawing } = setUp();
    const drawer = await drawing();
    await expect(drawer?.drawChartSvg({ die: true }, size)).rejects.toThrow(/exited with code 3/);
    const fallback = await drawing();
    expect(await fallback?.drawChartSvg({ label: "later" }, size)).toBe(`<svg>later on thread ${threadId}</svg>`);
  });

  it("ends with the server: a drawing still waited for, or asked after, is refused, not left hanging", async () => {
    const drawer = await setUp().drawing();
    await drawer?.drawChartSvg({ label: "first" }, size);
    const refused = expect(drawer?.drawChartSvg({ hold: true }, size)).rejects.toThrow("The server is closing.");
    await app?.close();
    app = null;
    await refused;
    // Nor is a thread started again for a drawing asked after the end.
    await expect(drawer?.drawChartSvg({ label: "too late" }, size)).rejects.toThrow("The server is closing.");
  });
});
