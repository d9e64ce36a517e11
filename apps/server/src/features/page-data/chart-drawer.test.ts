import type { ServerRenderBundle } from "@app/core";
import { describe, expect, it } from "vitest";
import { ChartDrawer } from "./chart-snapshots";

/** A bundle whose drawings are `<svg>` plus the input's label padded to `bytes`, each released by hand. */
function fakeBundle(alongside = false) {
  const drawn: string[] = [];
  const waiting = new Map<string, () => void>();
  const bundle = {
    alongside,
    drawChartSvg: async (input: Record<string, unknown>) => {
      const label = String(input.label);
      drawn.push(label);
      if (input.hold) await new Promise<void>((resolve) => waiting.set(label, resolve));
      if (input.refuse) throw new Error("cannot draw");
      return `<svg>${label}</svg>`.padEnd(Number(input.bytes ?? 10), " ");
    },
  } as unknown as ServerRenderBundle;
  return { bundle: async () => bundle, drawn, release: (label: string) => waiting.get(label)?.() };
}

const size = { width: 400, height: 300 };
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("ChartDrawer: drawings kept by input and size", () => {
  it.each([
    ["the same input and size", { label: "a", bytes: 10 }, size, true],
    ["the same input with its keys in another order", { bytes: 10, label: "a" }, size, true],
    ["the same input at another size", { label: "a", bytes: 10 }, { width: 401, height: 300 }, false],
    ["another input", { label: "b", bytes: 10 }, size, false],
  ])("%s is kept: %s", async (_name, input, at, kept) => {
    const fake = fakeBundle();
    const drawer = new ChartDrawer(fake.bundle);
    await drawer.draw({ label: "a", bytes: 10 }, size).svg;
    const again = drawer.draw(input, at);
    expect(again.kept).toBe(kept);
    await again.svg;
    expect(fake.drawn.length).toBe(kept ? 1 : 2);
  });

  it("a drawing being made ahead is shared by the page's request, not drawn twice", async () => {
    const fake = fakeBundle();
    const drawer = new ChartDrawer(fake.bundle);
    drawer.drawAhead([{ input: { label: "a" }, size }]);
    const asked = drawer.draw({ label: "a" }, size);
    expect(asked.kept).toBe(true);
    expect(await asked.svg).toContain("<svg>a</svg>");
    expect(fake.drawn).toEqual(["a"]);
  });

  it.each([
    ["on a thread of their own, all are asked for at once", true, ["a", "b", "c"]],
    ["on the event loop, one at a time (the next once the last is done)", false, ["a"]],
  ])("drawn ahead %s", async (_name, alongside, started) => {
    const fake = fakeBundle(alongside);
    const drawer = new ChartDrawer(fake.bundle);
    const drawings = drawer.drawAhead(["a", "b", "c"].map((label) => ({ input: { label, hold: true }, size })));
    await settle();
    expect(fake.drawn).toEqual(started);
    for (const label of ["a", "b", "c"]) {
      fake.release(label);
      await settle();
    }
    // Each item's drawing, in the items' order.
    expect(await Promise.all(drawings)).toEqual(["<svg>a</svg>", "<svg>b</svg>", "<svg>c</svg>"]);
    // Drawn ahead again (the next pass of the render), they are the kept ones, not drawn anew.
    expect(await Promise.all(drawer.drawAhead([{ input: { label: "b", hold: true }, size }]))).toEqual([
      "<svg>b</svg>",
    ]);
    expect(fake.drawn).toEqual(["a", "b", "c"]);
  });

  it("a refused input is not kept: asked again, it is drawn again", async () => {
    const fake = fakeBundle();
    const drawer = new ChartDrawer(fake.bundle);
    await expect(drawer.draw({ label: "x", refuse: true }, size).svg).rejects.toThrow("cannot draw");
    await settle();
    expect(drawer.draw({ label: "x", refuse: true }, size).kept).toBe(false);
  });

  it("over its limit the least recently used goes first, never one still being drawn", async () => {
    const fake = fakeBundle();
    const drawer = new ChartDrawer(fake.bundle, 250);
    // Being drawn (held): oldest of all, with no bytes yet.
    const held = drawer.draw({ label: "held", hold: true, bytes: 100 }, size);
    await drawer.draw({ label: "one", bytes: 100 }, size).svg;
    await drawer.draw({ label: "two", bytes: 100 }, size).svg;
    // "one" used again: "two" is now the least recently used finished drawing.
    expect(drawer.draw({ label: "one", bytes: 100 }, size).kept).toBe(true);
    await drawer.draw({ label: "three", bytes: 100 }, size).svg;
    await settle();
    expect(drawer.draw({ label: "held", hold: true, bytes: 100 }, size).kept).toBe(true);
    expect(drawer.draw({ label: "one", bytes: 100 }, size).kept).toBe(true);
    expect(drawer.draw({ label: "three", bytes: 100 }, size).kept).toBe(true);
    expect(drawer.draw({ label: "two", bytes: 100 }, size).kept).toBe(false);
    fake.release("held");
    expect(await held.svg).toContain("<svg>held</svg>");
  });
});
