import { AsyncLocalStorage } from "node:async_hooks";
import type { TInteractiveWidget } from "@app/core";
import { bodyFit, cardBoxesAt } from "../features/widgets/card-size";
import type { ChartInput } from "../features/widgets/charts/chart-common";
import type { ChartSize } from "../features/widgets/charts/chart-svg";

/**
 * A member's page rendered at a known viewport width (server-entry.tsx): each chart card notes the drawing
 * its page will ask the server for once in the browser, which the server then draws while the browser
 * loads the page. Per render (renders run concurrently), as the transport is (transport.server.ts).
 */
export interface ServerDrawings {
  viewportWidth: number;
  /** By widget id; a render pass notes its cards anew. */
  wanted: Map<string, { input: ChartInput; size: ChartSize; body: ChartSize }>;
}

const current = new AsyncLocalStorage<ServerDrawings>();

export function withServerDrawings<T>(drawings: ServerDrawings, run: () => Promise<T>): Promise<T> {
  return current.run(drawings, run);
}

/**
 * features/widgets/server-drawings.ts's signature (this module replaces it in the server's build): the
 * drawing the page will ask for (ssr/chart-placeholders.ts, the same rules), the input measured at the card
 * body's size, at the chart box's size, both as the viewport's width lays the card out.
 */
export function noteServerDrawing(widget: TInteractiveWidget, input: ChartInput): void {
  const drawings = current.getStore();
  const boxes = drawings ? cardBoxesAt(drawings.viewportWidth, widget.width, widget.height) : null;
  if (!drawings || !boxes) return;
  drawings.wanted.set(String(widget.id), {
    input: { ...input, ...bodyFit(widget.format, boxes.body.width, boxes.body.height) },
    size: boxes.chart,
    body: boxes.body,
  });
}
