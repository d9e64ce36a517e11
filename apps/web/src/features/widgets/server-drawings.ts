import type { TInteractiveWidget } from "@app/core";
import type { ChartInput } from "./charts/chart-common";

/**
 * Notes the drawing a chart card's page will ask the server for, while a member's page is rendered by the
 * server at a known viewport width: the server draws it meanwhile (docs/decisions.md, "A member's charts
 * drawn ahead"). In the browser there is nothing to note; the server-rendering build swaps this module for
 * ssr/server-drawings.server.ts (vite.config.ts).
 */
export function noteServerDrawing(_widget: TInteractiveWidget, _input: ChartInput): void {}
