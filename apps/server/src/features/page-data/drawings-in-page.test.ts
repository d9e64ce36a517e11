import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { PageChart } from "@app/core";
import { describe, expect, it } from "vitest";
import {
  allowingDrawingScript,
  DRAWING_SCRIPT,
  DRAWING_SCRIPT_HASH,
  drawingsInPage,
  writeDrawingsInPage,
} from "./drawings-in-page";

const chart = (widgetId: string): PageChart => ({
  widgetId,
  input: {},
  size: { width: 400, height: 300 },
  body: { width: 432, height: 320 },
});

/** A drawing settled by hand. */
function held() {
  let resolve: (svg: string) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<string>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** The widgets of each batch written, in order. */
function batchesOf(written: string[]): string[][] {
  return written.map((html) => {
    const json = /<script type="application\/json">([^<]*)<\/script>/.exec(html)?.[1] ?? "[]";
    return (JSON.parse(json) as Array<{ widget: string }>).map((item) => item.widget);
  });
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("a member's charts drawn in the page", () => {
  it("the policy allows the one script by its hash, in script-src only", () => {
    expect(DRAWING_SCRIPT_HASH).toBe(`'sha256-${createHash("sha256").update(DRAWING_SCRIPT).digest("base64")}'`);
    expect(allowingDrawingScript("default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline'")).toBe(
      `default-src 'self';script-src 'self' ${DRAWING_SCRIPT_HASH};style-src 'self' 'unsafe-inline'`,
    );
    // A policy without script-src (its default-src rules scripts): left as it is rather than widened.
    expect(allowingDrawingScript("default-src 'self'")).toBe("default-src 'self'");
  });

  it("makes the same layer as the page's own first drawing (web chart-snapshots.ts, snapshotLayer)", () => {
    const web = fs.readFileSync(
      path.resolve(import.meta.dirname, "../../../../web/src/features/widgets/charts/chart-snapshots.ts"),
      "utf8",
    );
    const layer = /export function snapshotLayer[\s\S]*?\n}/.exec(web)?.[0] ?? "";
    const style = /layer\.style\.cssText = "([^"]+)"/.exec(layer)?.[1];
    expect(style).toBeTruthy();
    expect(DRAWING_SCRIPT).toContain(`l.style.cssText='${style}'`);
    expect(layer).toContain('layer.className = "echart-snapshot"');
    expect(DRAWING_SCRIPT).toContain("l.className='echart-snapshot'");
    expect(layer).toContain('layer.setAttribute("aria-hidden", "true")');
    expect(DRAWING_SCRIPT).toContain("l.setAttribute('aria-hidden','true')");
  });

  it("carries each drawing with its card and sizes, with no '<' that could end its script", () => {
    const html = drawingsInPage([{ chart: chart("7"), svg: "<svg><text>a </script> b</text></svg>" }]);
    const [, json, script] = /^<script type="application\/json">([^<]*)<\/script><script>([^<]*)<\/script>$/.exec(
      html,
    ) ?? [null, "", ""];
    expect(script).toBe(DRAWING_SCRIPT);
    expect(JSON.parse(json)).toEqual([
      { widget: "7", size: "400x300", body: "432x320", svg: "<svg><text>a </script> b</text></svg>" },
    ]);
  });

  it("writes those done, in page order, each time one is done; a failed one is left to the page", async () => {
    const drawings = [held(), held(), held(), held()];
    const written: string[] = [];
    const writing = writeDrawingsInPage(
      ["a", "b", "c", "d"].map(chart),
      drawings.map((drawing) => drawing.promise),
      (html) => written.push(html) > 0,
    );
    drawings[2].resolve("<svg>c</svg>");
    drawings[1].resolve("<svg>b</svg>");
    await tick();
    expect(batchesOf(written)).toEqual([["b", "c"]]);
    drawings[3].reject(new Error("cannot draw"));
    await tick();
    expect(batchesOf(written)).toEqual([["b", "c"]]);
    drawings[0].resolve("<svg>a</svg>");
    await writing;
    expect(batchesOf(written)).toEqual([["b", "c"], ["a"]]);
  });

  it("stops waiting at its limit, and once the page is no longer read", async () => {
    const late = held();
    const written: string[] = [];
    const started = Date.now();
    await writeDrawingsInPage(
      [chart("a"), chart("b")],
      [Promise.resolve("<svg>a</svg>"), late.promise],
      (html) => written.push(html) > 0,
      50,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(batchesOf(written)).toEqual([["a"]]);

    const gone: string[] = [];
    const second = held();
    const writing = writeDrawingsInPage(
      [chart("a"), chart("b")],
      [Promise.resolve("<svg>a</svg>"), second.promise],
      (html) => {
        gone.push(html);
        return false;
      },
    );
    await writing;
    expect(batchesOf(gone)).toEqual([["a"]]);
    late.resolve("<svg>b</svg>");
    second.resolve("<svg>b</svg>");
  });
});
