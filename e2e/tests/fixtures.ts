import { test as base } from "@playwright/test";

export * from "@playwright/test";

/**
 * Playwright's `test`, with one fixture every browser test gets: the browser contexts a test opens itself
 * (`browser.newContext()`: a colleague, a client on a phone, a visitor) are closed when it ends, even when
 * it fails or closes only their page. The worker's browser lives for the whole run, so a context left
 * open keeps its pages, sockets and timers running under every later test.
 */
export const test = base.extend<{ closesItsContexts: undefined }>({
  closesItsContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use(undefined);
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close().catch(() => undefined)),
      );
    },
    { auto: true },
  ],
});
