import { createHash } from "node:crypto";
import type { PageChart } from "@app/core";

/**
 * The longest a member's page stays open for its charts' drawings after its body has gone out. The app's
 * modules run only once the page has ended (they are deferred), so this bounds how much later the app can
 * start than it would without them; a drawing not done by then is asked for by the page (member-boot.ts).
 */
export const DRAWINGS_IN_PAGE_MS = 1000;

/**
 * The script after each batch of drawings in a member's page (docs/decisions.md, "A member's charts drawn
 * in the page"): it puts each drawing of the batch before it into its card's chart box, as the page's own
 * first drawing does (web ssr/chart-placeholders.ts: the same layer, the card then ready), but only where
 * the browser laid the card out at the sizes the server drew it for. A card laid out otherwise (another
 * scrollbar, a zoom) is left to the page, which measures it and asks for its drawing. Every box is
 * measured before any drawing goes in, so a batch costs the browser one layout. One fixed text, so the
 * page's policy allows it by its hash (`DRAWING_SCRIPT_HASH`) and no other inline script runs.
 */
export const DRAWING_SCRIPT =
  "(function(){var s=document.currentScript,j=s.previousElementSibling;s.remove();if(!j)return;" +
  "var list=JSON.parse(j.textContent),fit=[];j.remove();" +
  "list.forEach(function(d){var c=document.querySelector('.dash-card[data-widget-id=\"'+d.widget+'\"]');" +
  "var b=c&&c.querySelector('[data-chart-input]'),y=c&&c.querySelector('.dash-card-body');" +
  "if(!b||!y||b.querySelector(':scope>.echart-snapshot'))return;" +
  "if(b.clientWidth+'x'+b.clientHeight===d.size&&y.offsetWidth+'x'+y.offsetHeight===d.body)fit.push([d,c,b])});" +
  "fit.forEach(function(f){var d=f[0],c=f[1],l=document.createElement('div');" +
  "l.className='echart-snapshot';l.setAttribute('aria-hidden','true');" +
  "l.style.cssText='position:absolute;inset:0;pointer-events:none;';l.dataset.size=d.size;l.innerHTML=d.svg;" +
  "f[2].appendChild(l);c.dataset.state='ready';c.dataset.ready='true';c.setAttribute('aria-busy','false')})})()";

/** The page's policy's source for `DRAWING_SCRIPT` (CSP `script-src`). */
export const DRAWING_SCRIPT_HASH = `'sha256-${createHash("sha256").update(DRAWING_SCRIPT).digest("base64")}'`;

/** A policy (the Content-Security-Policy header's value) that also allows `DRAWING_SCRIPT`. */
export function allowingDrawingScript(policy: string): string {
  const directives = policy.split(";").map((directive) => directive.trim());
  const index = directives.findIndex((directive) => /^script-src\s/i.test(directive));
  if (index === -1) return policy;
  directives[index] = `${directives[index]} ${DRAWING_SCRIPT_HASH}`;
  return directives.join(";");
}

/** Drawings as the page carries them: their data, then the script that puts them in place. */
export function drawingsInPage(drawn: ReadonlyArray<{ chart: PageChart; svg: string }>): string {
  const data = drawn.map(({ chart, svg }) => ({
    widget: chart.widgetId,
    size: `${chart.size.width}x${chart.size.height}`,
    body: `${chart.body.width}x${chart.body.height}`,
    svg,
  }));
  // As every JSON the page carries: no "<" that could end the script early.
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  return `<script type="application/json">${json}</script><script>${DRAWING_SCRIPT}</script>`;
}

/**
 * Writes the charts' drawings into the page as they are done, in batches: each time one is done, all
 * those done by then (in page order), until all are written or `waitMs` has passed since the call. A
 * drawing that failed is left to the page. `write` says whether the page is still being read.
 */
export async function writeDrawingsInPage(
  charts: readonly PageChart[],
  drawings: ReadonlyArray<Promise<string>>,
  write: (html: string) => boolean,
  waitMs = DRAWINGS_IN_PAGE_MS,
): Promise<void> {
  const done = new Map<number, string | null>();
  const settled = drawings.map((drawing, index) =>
    drawing.then(
      (svg) => void done.set(index, svg),
      () => void done.set(index, null),
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), waitMs);
  });
  const written = new Set<number>();
  try {
    while (written.size < charts.length) {
      const waiting = settled.filter((_, index) => !written.has(index) && !done.has(index));
      if (waiting.length > 0 && (await Promise.race([Promise.race(waiting), late])) === "late") return;
      const batch: Array<{ chart: PageChart; svg: string }> = [];
      for (const [index, svg] of done) {
        if (written.has(index)) continue;
        written.add(index);
        if (svg !== null) batch.push({ chart: charts[index], svg });
      }
      batch.sort((a, b) => charts.indexOf(a.chart) - charts.indexOf(b.chart));
      if (batch.length > 0 && !write(drawingsInPage(batch))) return;
    }
  } finally {
    clearTimeout(timer);
  }
}
