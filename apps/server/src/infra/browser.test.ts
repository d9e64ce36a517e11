import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { startTestEnv } from "../../test/harness";
import { createBrowserPool } from "./browser";

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
});
