import type { TPageData } from "@app/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { bootServerRendered } from "./boot";

/**
 * The server-rendered public view's boot (ssr/boot.ts) in the browsers without `TouchEvent` (desktop
 * Safari and Firefox): reading it there threw, in the handler of the reader's first pointer, and the app
 * never started. Node has no `TouchEvent` either; its DOM here is the little the boot reads, and the app
 * (ssr/hydrate.tsx) and the charts drawn before it (ssr/chart-placeholders.ts) are stand-ins.
 */

const mocks = vi.hoisted(() => ({
  hydratePublicView: vi.fn(async () => ({ answered: () => false })),
  drawChartPlaceholders: vi.fn(async () => true),
}));
vi.mock("./hydrate", () => ({ hydratePublicView: mocks.hydratePublicView }));
vi.mock("./chart-placeholders", () => ({ drawChartPlaceholders: mocks.drawChartPlaceholders }));

/** An element: the selectors it matches, its parent, its box on the page. */
class FakeElement {
  dataset: Record<string, string> = {};
  constructor(
    private readonly selectors: string[],
    readonly parentElement: FakeElement | null = null,
    private readonly rect = { left: 0, top: 0, width: 0, height: 0 },
  ) {}
  matches(selector: string): boolean {
    return selector.split(",").some((one) => this.selectors.includes(one.trim()));
  }
  closest(selector: string): FakeElement | null {
    for (let element: FakeElement | null = this; element; element = element.parentElement) {
      if (element.matches(selector)) return element;
    }
    return null;
  }
  getBoundingClientRect() {
    return this.rect;
  }
}

/** A pointer event is a mouse event (PointerEvent extends MouseEvent in browsers). */
class FakeMouseEvent extends Event {
  readonly clientX: number;
  readonly clientY: number;
  constructor(type: string, init: { clientX: number; clientY: number }) {
    super(type);
    this.clientX = init.clientX;
    this.clientY = init.clientY;
  }
}

/** Dispatched on the document (the boot listens there, capturing) as if on `target`. */
function pointerDown(target: FakeElement, at: { clientX: number; clientY: number }) {
  const event = new FakeMouseEvent("pointerdown", at);
  Object.defineProperty(event, "target", { value: target });
  document.dispatchEvent(event);
}

const container = {} as HTMLElement;
const pageData = { config: {} } as TPageData;
const state = { timezone: "UTC", complete: true, queries: { mutations: [], queries: [] } } as unknown as Parameters<
  typeof bootServerRendered
>[2];
const html = { dataset: {} as Record<string, string | undefined> };

beforeEach(() => {
  html.dataset = {};
  vi.stubGlobal("document", Object.assign(new EventTarget(), { documentElement: html }));
  vi.stubGlobal("Element", FakeElement);
  vi.stubGlobal("MouseEvent", FakeMouseEvent);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe("the first pointer starts the app where TouchEvent does not exist", () => {
  /** The page as the boot leaves it once the charts are drawn: waiting for the reader. */
  async function waiting() {
    expect("TouchEvent" in globalThis).toBe(false);
    bootServerRendered(container, pageData, state);
    await vi.waitFor(() => expect(mocks.drawChartPlaceholders).toHaveBeenCalledWith(container));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(mocks.hydratePublicView).not.toHaveBeenCalled();
    expect(html.dataset.app).toBeUndefined();
  }

  it("a pointer down on a chart starts it, and that chart goes live where it was pointed at", async () => {
    await waiting();
    const chart = new FakeElement(["[data-chart-input]"], null, { left: 100, top: 50, width: 400, height: 300 });
    const line = new FakeElement(["path"], chart);

    pointerDown(line, { clientX: 130, clientY: 70 });

    expect(html.dataset.app).toBe("starting");
    expect(chart.dataset.woken).toBe("30,20");
    await vi.waitFor(() => expect(mocks.hydratePublicView).toHaveBeenCalledWith(container, pageData, state));
  });

  it("a pointer down anywhere else on the page starts it, once", async () => {
    await waiting();
    const title = new FakeElement(["h1"]);

    pointerDown(title, { clientX: 10, clientY: 10 });
    pointerDown(title, { clientX: 12, clientY: 10 });

    expect(html.dataset.app).toBe("starting");
    await vi.waitFor(() => expect(mocks.hydratePublicView).toHaveBeenCalledTimes(1));
    expect(title.dataset.woken).toBeUndefined();
  });
});
