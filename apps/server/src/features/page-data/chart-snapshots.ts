import { createHash } from "node:crypto";
import { API, chartDrawingKeyText, ZErrorBody } from "@app/core";
import type { App } from "../../infra/http";
import type { ChartDrawing } from "./chart-worker";

/** Room for the most charts a request may carry, each with its data (the input is the chart's whole table). */
const BODY_LIMIT = 8 * 1024 * 1024;

/** How much drawn SVG a process keeps (a 24-widget dashboard's 16 charts are about 0.2 MB). */
const KEPT_BYTES = 32 * 1024 * 1024;

type Bundle = () => Promise<ChartDrawing | null>;
type Size = { width: number; height: number };

/** Resolves in a later turn of the event loop, so other requests are answered between two drawings. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A chart's input and size as a key: the same for the input a member's page is rendered with and the one its browser sends. */
function canonicalKey(input: unknown, size: Size): string {
  return createHash("sha256").update(chartDrawingKeyText(input, size)).digest("base64url");
}

/**
 * The server's chart drawings (the web build's server bundle, `drawChartSvg`), kept by input and size,
 * most recently used last, and shared while one is being drawn. A drawing is made from nothing but its
 * input, which the asker sends whole, so a kept one tells no one anything they did not send: it needs no
 * company scope. Per process, like a browser's own kept drawings. docs/decisions.md, "A member's charts
 * drawn ahead".
 */
export class ChartDrawer {
  private readonly kept = new Map<string, Promise<string>>();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;

  constructor(
    private readonly bundle: Bundle | null,
    private readonly limit = KEPT_BYTES,
  ) {}

  /** Whether this server draws charts (false without the web build's server bundle). */
  async available(): Promise<boolean> {
    return (await this.bundle?.()) != null;
  }

  /**
   * One chart's SVG (rejected when the drawing code refuses the input) and whether it was kept or being
   * drawn already (a member's page drawn ahead, an earlier request), rather than drawn for this call.
   */
  draw(input: Record<string, unknown>, size: Size): { svg: Promise<string>; kept: boolean } {
    const key = canonicalKey(input, size);
    const kept = this.kept.get(key);
    if (kept) {
      this.kept.delete(key);
      this.kept.set(key, kept);
      return { svg: kept, kept: true };
    }
    return { svg: this.keep(key, this.drawNow(input, size)), kept: false };
  }

  /**
   * The charts a member's page will ask for (`RenderedPublicView.charts`), drawn one after another, each in
   * a later turn of the event loop, while the browser loads the page. Each is known at once as being
   * drawn, so the page's request waits for it rather than drawing it again. Their SVGs, in the items'
   * order (a kept one's at once), for the page to carry those done in time (drawings-in-page.ts).
   */
  drawAhead(items: ReadonlyArray<{ input: Record<string, unknown>; size: Size }>): Array<Promise<string>> {
    const drawing = this.bundle?.() ?? Promise.resolve(null);
    let previous: Promise<unknown> = Promise.resolve();
    // As the page will send them: through JSON (a NaN in the render's input arrives as null).
    const asSent = JSON.parse(JSON.stringify(items)) as typeof items;
    return asSent.map(({ input, size }) => {
      const key = canonicalKey(input, size);
      const kept = this.kept.get(key);
      if (kept) return kept;
      // Drawn on the event loop, one per turn so that other requests are answered between them; drawn on
      // a thread of their own, all asked at once, so the thread never waits for a busy event loop between two.
      const turn = previous.then(nextTurn);
      const drawn = drawing.then((loaded) =>
        loaded?.alongside ? this.drawNow(input, size) : turn.then(() => this.drawNow(input, size)),
      );
      previous = drawn.catch(() => undefined);
      return this.keep(key, drawn);
    });
  }

  private async drawNow(input: Record<string, unknown>, size: Size): Promise<string> {
    const loaded = await this.bundle?.();
    if (!loaded) throw new Error("Charts are drawn by the browser on this server.");
    return loaded.drawChartSvg(input, size);
  }

  private keep(key: string, drawn: Promise<string>): Promise<string> {
    this.kept.set(key, drawn);
    drawn.then(
      (svg) => this.account(key, svg.length),
      () => this.kept.delete(key),
    );
    return drawn;
  }

  private account(key: string, length: number): void {
    if (!this.kept.has(key) || this.sizes.has(key)) return;
    this.sizes.set(key, length);
    this.bytes += length;
    for (const oldest of this.kept.keys()) {
      if (this.bytes <= this.limit) break;
      // One still being drawn stays: a page drawn ahead is about to ask for it, and it holds no bytes yet.
      if (!this.sizes.has(oldest)) continue;
      this.kept.delete(oldest);
      this.bytes -= this.sizes.get(oldest) ?? 0;
      this.sizes.delete(oldest);
    }
  }
}

/**
 * POST /api/chart-snapshots: a member's charts drawn here, as SVG, by the same code as the browser's snapshot
 * worker (the web build's server bundle, `drawChartSvg`). A browser that keeps no drawing of a dashboard (a
 * first visit, a new release) would otherwise load ECharts into a worker and run its cold code for every
 * chart while the page itself starts; here the code is warm after the first requests
 * (docs/decisions.md, "The owner's first drawings made by the server"), and a member's page drawn ahead
 * has them ready. Members only (the default guard): a public viewer's page is drawn by its own worker.
 * 503 without a bundle (the web app not built): the browser then draws every chart itself.
 */
export function chartSnapshotRoutes(app: App, drawer: ChartDrawer) {
  app.post(
    "/api/chart-snapshots",
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ["widgets"],
        summary: "Charts of a dashboard drawn by the server as SVG (each item its own answer or error)",
        body: API.chartSnapshots.body,
        response: { 200: API.chartSnapshots.output, 503: ZErrorBody },
      },
    },
    async (request, reply) => {
      if (!(await drawer.available())) {
        return reply
          .code(503)
          .send({ code: "unavailable", message: "Charts are drawn by the browser on this server." });
      }
      const data: Array<{ svg: string } | { error: string }> = [];
      let found = 0;
      for (const [index, { input, size }] of request.body.items.entries()) {
        if (index > 0) await nextTurn();
        const { svg, kept } = drawer.draw(input, size);
        if (kept) found += 1;
        try {
          data.push({ svg: await svg });
        } catch (error) {
          // An input the drawing code refuses is that item's failure (the browser draws it), not the request's.
          data.push({ error: error instanceof Error ? error.message : String(error) });
        }
      }
      // How many were drawn before they were asked for: a member's page drawn ahead says all of them.
      reply.header("server-timing", `charts;desc="${found} of ${data.length} drawn ahead"`);
      return { data };
    },
  );
}
