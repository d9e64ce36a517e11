import { bodyFit } from "../features/widgets/card-size";
import type { ChartInput } from "../features/widgets/charts/chart-common";
import { chartSnapshot, snapshotLayer, snapshotsAvailable } from "../features/widgets/charts/chart-snapshots";

/**
 * The charts of a server-rendered dashboard, drawn before the app (a public view's: without it): each
 * chart's box carries the input its option is made from (EChart.tsx, `data-chart-input`); here it is
 * measured and drawn as an SVG, the same drawing the app makes first (chart-snapshots.ts): by the page's
 * worker for a public viewer, from this browser's kept drawings or by the server for a member (`member`).
 * The card then says it is ready, as the app's card does once its chart is drawn. The app, when it
 * starts, adopts these layers instead of drawing them again.
 */
export async function drawChartPlaceholders(root: ParentNode, { member = false } = {}): Promise<boolean> {
  if (!snapshotsAvailable()) return root.querySelector("[data-chart-input]") === null;
  const boxes = [...root.querySelectorAll<HTMLElement>("[data-chart-input]")];
  let allDrawn = true;
  const drawn = (box: HTMLElement) =>
    drawOne(box, member).catch((error: unknown) => {
      // The app draws it live: false starts it.
      console.warn("A chart could not be drawn before the app started:", error);
      allDrawn = false;
    });
  // A member's are asked for at once, as the app asks for them: kept drawings from this browser, the rest
  // from the server in one request (chart-snapshots.ts). A public viewer's are drawn by the page's worker,
  // one at a time in page order: the first screen's charts come first.
  if (member) await Promise.all(boxes.map(drawn));
  else for (const box of boxes) await drawn(box);
  // A member's page is hydrated next: the app's charts follow their boxes from then on.
  if (member) return allDrawn;
  // A snapshot is drawn at one size: a chart whose box changes size (a phone turned, a window widened)
  // is drawn again, until the app takes it over.
  if (allDrawn && typeof ResizeObserver !== "undefined") {
    let frame = 0;
    const changed = new Set<HTMLElement>();
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) changed.add(entry.target as HTMLElement);
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (document.documentElement.dataset.app) return observer.disconnect();
        const boxes = [...changed];
        changed.clear();
        for (const box of boxes) void drawOne(box, false).catch(() => undefined);
      });
    });
    for (const box of boxes) observer.observe(box);
  }
  return allDrawn;
}

async function drawOne(box: HTMLElement, keep: boolean): Promise<void> {
  const input = JSON.parse(box.dataset.chartInput ?? "null") as ChartInput | null;
  const body = box.closest<HTMLElement>(".dash-card-body");
  if (!input || !body) return;
  // What the card decides once measured (WidgetCard.tsx, the same rule): from the body's border box.
  const measured: ChartInput = { ...input, ...bodyFit(input.widget.format, body.offsetWidth, body.offsetHeight) };
  const size = { width: box.clientWidth, height: box.clientHeight };
  if (size.width === 0 || size.height === 0) return;
  const drawnSize = `${size.width}x${size.height}`;
  const current = box.querySelector<HTMLElement>(":scope > .echart-snapshot");
  if (current?.dataset.size === drawnSize) return;
  const svg = await chartSnapshot(measured, size, keep);
  // The app is starting (ssr/boot.ts): the chart is its own now.
  if (document.documentElement.dataset.app) return;
  const layer = box.querySelector<HTMLElement>(":scope > .echart-snapshot") ?? snapshotLayer(box);
  layer.dataset.size = drawnSize;
  layer.innerHTML = svg;
  const card = box.closest<HTMLElement>(".dash-card");
  if (card) {
    card.dataset.state = "ready";
    card.dataset.ready = "true";
    card.setAttribute("aria-busy", "false");
  }
}
