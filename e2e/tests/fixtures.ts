import { test as base, expect } from "@playwright/test";

export * from "@playwright/test";

/**
 * Playwright's `test`, with two fixtures every browser test gets:
 * - the browser contexts a test opens itself (`browser.newContext()`: a colleague, a client on a phone, a
 *   visitor) are closed when it ends, even when it fails or closes only their page. The worker's browser
 *   lives for the whole run, so a context left open keeps its pages, sockets and timers running under
 *   every later test;
 * - a page the server rendered (a public view, a member's dashboard) that React could not adopt as it was
 *   (`data-hydration="mismatch"`, set by apps/web/src/ssr/hydrate.tsx and member-hydrate.tsx) fails the test:
 *   React then draws the page anew, which the reader sees, and a test that only looks at the result would
 *   not notice.
 */
export const test = base.extend<{ closesItsContexts: undefined }>({
  closesItsContexts: [
    // On `context` too, so the test's own page is still open when its pages are looked at.
    async ({ browser, context: _context }, use) => {
      const before = new Set(browser.contexts());
      await use(undefined);
      const mismatched: string[] = [];
      for (const context of browser.contexts()) {
        for (const page of context.pages()) {
          const state = await page.evaluate(() => document.documentElement.dataset.hydration ?? null).catch(() => null);
          if (state === "mismatch") mismatched.push(page.url());
        }
      }
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close().catch(() => undefined)),
      );
      expect(mismatched, "pages whose server-rendered HTML React could not adopt").toEqual([]);
    },
    { auto: true },
  ],
});
