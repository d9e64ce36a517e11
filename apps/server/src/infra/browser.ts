/**
 * Headless Chromium for PDF export and preview images (docs/operations.md). Lazy: nothing launches a
 * browser until a feature asks for a page, so web processes and tests that never render pay nothing.
 * Pages come from a small bounded pool on one warm browser (launch ~170 ms). A fresh context and page
 * cost 0.4–0.6 s on this kind of machine (a new renderer process), so work that can take over a page
 * another piece of work left behind (`withWarmPage`) gets one: the PDF renderer keeps its print view
 * loaded between renders (docs/decisions.md, "Warm print pages").
 */
import type { Browser, BrowserContext, Page } from "playwright-core";

type Viewport = { width: number; height: number };

export interface BrowserPool {
  /** Runs `work` on a fresh page in a fresh context; the page is closed afterwards whatever happens. */
  withPage<T>(work: (page: Page) => Promise<T>, options?: { viewport?: Viewport }): Promise<T>;
  /**
   * Runs `work` on a page kept open between uses: it may still show what an earlier use of the same
   * `kind` left (the caller decides whether to reuse it). A page whose work failed is closed, and
   * every page is retired after `WARM_PAGE_USES` uses so a long-lived page cannot grow without bound.
   */
  withWarmPage<T>(kind: string, work: (page: Page) => Promise<T>, options?: { viewport?: Viewport }): Promise<T>;
  /** True once a browser has been launched (tests assert laziness). */
  launched(): boolean;
  /** How many pages this pool has opened so far (warm pages count once, however often they are used). */
  pagesOpened(): number;
  close(): Promise<void>;
}

/** Debian's Chromium as root, network closed: no sandbox, no background services (what that package needs in a container). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Uses of one warm page before it is closed and replaced. */
export const WARM_PAGE_USES = 40;

interface WarmPage {
  kind: string;
  context: BrowserContext;
  page: Page;
  uses: number;
  browser: Browser;
}

export function createBrowserPool(options: { executablePath: string; maxPages?: number }): BrowserPool {
  const maxPages = options.maxPages ?? 2;
  let browser: Promise<Browser> | null = null;
  let active = 0;
  let opened = 0;
  // Idle warm pages; never more than maxPages (each was one of the pool's slots when it was in use).
  let idle: WarmPage[] = [];
  const waiting: (() => void)[] = [];
  let closed = false;
  const launch = async () => {
    const { chromium } = await import("playwright-core");
    const launchedBrowser = await chromium.launch({
      executablePath: options.executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
      // The process's own graceful shutdown (main.ts) closes the browser once running renders have
      // finished. Playwright's handlers would close it at the signal, under those renders (and fail a
      // launch under way), and on SIGINT exit the process before its requests are drained.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    // A crashed browser is relaunched on the next request instead of failing every later one.
    launchedBrowser.on("disconnected", () => {
      browser = null;
      idle = idle.filter((warm) => warm.browser !== launchedBrowser);
    });
    return launchedBrowser;
  };
  /** The browser, launched on first use. After close() none is launched again: a warm-up retried during
   * the shutdown would otherwise start one that the exiting process never closes. */
  const running = () => {
    if (closed) throw new Error("The browser pool is closed.");
    browser ??= launch();
    return browser;
  };
  const acquire = async () => {
    if (active < maxPages) {
      active += 1;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  };
  return {
    async withPage(work, pageOptions) {
      await acquire();
      let context: BrowserContext | null = null;
      try {
        context = await (await running()).newContext({
          viewport: pageOptions?.viewport ?? { width: 1280, height: 800 },
        });
        const page = await context.newPage();
        opened += 1;
        return await work(page);
      } finally {
        await context?.close().catch(() => {});
        release();
      }
    },
    async withWarmPage(kind, work, pageOptions) {
      await acquire();
      const viewport = pageOptions?.viewport ?? { width: 1280, height: 800 };
      let warm: WarmPage | null = null;
      let kept = false;
      try {
        const index = idle.findIndex((candidate) => candidate.kind === kind);
        if (index >= 0) {
          warm = idle.splice(index, 1)[0] ?? null;
          await warm?.page.setViewportSize(viewport);
        } else {
          const launched = await running();
          const context = await launched.newContext({ viewport });
          warm = { kind, context, page: await context.newPage(), uses: 0, browser: launched };
          opened += 1;
        }
        if (!warm) throw new Error("no warm page");
        warm.uses += 1;
        const result = await work(warm.page);
        if (warm.uses < WARM_PAGE_USES && warm.browser.isConnected()) {
          // Another kind's idle page gives way: at most maxPages pages stay open.
          if (idle.length >= maxPages)
            await idle
              .shift()
              ?.context.close()
              .catch(() => {});
          idle.push(warm);
          kept = true;
        }
        return result;
      } finally {
        if (warm && !kept) await warm.context.close().catch(() => {});
        release();
      }
    },
    launched: () => browser !== null,
    pagesOpened: () => opened,
    async close() {
      closed = true;
      const current = browser;
      browser = null;
      idle = [];
      // A launch still under way is awaited and then closed; one that failed leaves nothing to close.
      if (current) await current.then((launched) => launched.close()).catch(() => {});
    },
  };
}
