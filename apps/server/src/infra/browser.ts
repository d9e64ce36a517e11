/**
 * Headless Chromium for PDF export and preview images (docs/operations.md). Lazy: nothing launches a
 * browser until a feature asks for a page, so web processes and tests that never render pay nothing.
 * Pages come from a small bounded pool on one warm browser (launch ~170 ms, a page ~85 ms).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";

export interface BrowserPool {
  /** Runs `work` on a fresh page in a fresh context; the page is closed afterwards whatever happens. */
  withPage<T>(work: (page: Page) => Promise<T>, options?: { viewport?: { width: number; height: number } }): Promise<T>;
  /** True once a browser has been launched (tests assert laziness). */
  launched(): boolean;
  close(): Promise<void>;
}

/** Debian's Chromium as root, network closed: no sandbox, no background services (TOOLCHAIN facts). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function createBrowserPool(options: { executablePath: string; maxPages?: number }): BrowserPool {
  const maxPages = options.maxPages ?? 2;
  let browser: Promise<Browser> | null = null;
  let active = 0;
  const waiting: (() => void)[] = [];
  const launch = async () => {
    const { chromium } = await import("playwright-core");
    const launchedBrowser = await chromium.launch({
      executablePath: options.executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    // A crashed browser is relaunched on the next request instead of failing every later one.
    launchedBrowser.on("disconnected", () => {
      browser = null;
    });
    return launchedBrowser;
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
        if (!browser) browser = launch();
        context = await (await browser).newContext({ viewport: pageOptions?.viewport ?? { width: 1280, height: 800 } });
        const page = await context.newPage();
        return await work(page);
      } finally {
        await context?.close().catch(() => {});
        release();
      }
    },
    launched: () => browser !== null,
    async close() {
      const current = browser;
      browser = null;
      if (current) await (await current).close().catch(() => {});
    },
  };
}
