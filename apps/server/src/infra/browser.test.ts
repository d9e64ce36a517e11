import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { startTestEnv } from "../../test/harness";
import { createBrowserPool, WARM_PAGE_USES } from "./browser";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

describe.skipIf(!fs.existsSync(chromium) && !process.env.CI)("browser pool", () => {
  const pool = createBrowserPool({ executablePath: chromium, maxPages: 2 });
  afterAll(() => pool.close());

  it("launches nothing until a feature asks for a page", async () => {
    const env = await startTestEnv("sqlite");
    try {
      expect((await env.client().raw("GET", "/api/health")).statusCode).toBe(200);
      expect(env.ctx.browser.launched()).toBe(false);
    } finally {
      await env.close();
    }
    expect(pool.launched()).toBe(false);
  });

  it("leaves signals to the process's own shutdown, survives being closed mid-launch, then launches nothing", async () => {
    const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
    const before = signals.map((signal) => process.listenerCount(signal));
    const closing = createBrowserPool({ executablePath: chromium, maxPages: 1 });
    // Its failure is awaited below, and handled from the start: it may come while close() runs.
    const work = closing.withPage((page) => page.evaluate(() => 1 + 1)).catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    // Closed while its browser is still launching (a launch takes ~170 ms): close() resolves, the work
    // fails or finishes.
    await closing.close();
    await work;
    await expect(closing.withPage(async () => "again")).rejects.toThrow("closed");
    expect(closing.launched()).toBe(false);
    const launchedOnce = createBrowserPool({ executablePath: chromium, maxPages: 1 });
    try {
      expect(await launchedOnce.withPage((page) => page.evaluate(() => 1 + 1))).toBe(2);
      expect(signals.map((signal) => process.listenerCount(signal))).toEqual(before);
    } finally {
      await launchedOnce.close();
    }
  }, 60_000);

  it("renders pages on one warm browser, at most maxPages at a time, and closes each page after use", async () => {
    let open = 0;
    let most = 0;
    const render = (text: string) =>
      pool.withPage(async (page) => {
        open += 1;
        most = Math.max(most, open);
        await page.setContent(`<h1>${text}</h1>`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        const heading = await page.textContent("h1");
        open -= 1;
        return heading;
      });
    expect(await Promise.all(["Sessions", "Clicks", "Revenue", "Users"].map(render))).toEqual([
      "Sessions",
      "Clicks",
      "Revenue",
      "Users",
    ]);
    expect(pool.launched()).toBe(true);
    expect(most).toBeLessThanOrEqual(2);
    // A failing piece of work releases its page: the pool keeps serving.
    await expect(pool.withPage(async () => Promise.reject(new Error("render failed")))).rejects.toThrow(
      "render failed",
    );
    expect(await render("After a failure")).toBe("After a failure");
  }, 60_000);

  it("keeps warm pages between uses of the same kind, closes one whose work failed, retires old ones", async () => {
    const warm = createBrowserPool({ executablePath: chromium, maxPages: 1 });
    try {
      const visit = (kind: string, work: (page: import("playwright-core").Page) => Promise<string | null>) =>
        warm.withWarmPage(kind, work);
      await visit("print", async (page) => {
        await page.setContent("<h1>First company</h1>");
        return null;
      });
      // The next use of the same kind finds what the last one left: the caller decides to reuse it.
      expect(await visit("print", (page) => page.textContent("h1"))).toBe("First company");
      expect(warm.pagesOpened()).toBe(1);
      // Another kind gets its own page (and, with one slot, the print page gives way).
      expect(await visit("other", (page) => page.textContent("body"))).toBe("");
      expect(warm.pagesOpened()).toBe(2);
      await visit("print", async (page) => {
        await page.setContent("<h1>Again</h1>");
        return null;
      });
      const opened = warm.pagesOpened();
      await expect(visit("print", async () => Promise.reject(new Error("render failed")))).rejects.toThrow();
      // The failed page is gone: the next use starts on a blank page.
      expect(await visit("print", (page) => page.textContent("body"))).toBe("");
      expect(warm.pagesOpened()).toBe(opened + 1);
      // However well it behaves, a page serves WARM_PAGE_USES uses at most.
      const before = warm.pagesOpened();
      for (let use = 0; use < WARM_PAGE_USES + 1; use++) await visit("print", async () => null);
      expect(warm.pagesOpened() - before).toBeGreaterThanOrEqual(1);
    } finally {
      await warm.close();
    }
  }, 60_000);
});
