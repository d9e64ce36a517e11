import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, type Page, test } from "./fixtures";
import { SCREENSHOTS, snap } from "./support";
import { signUp } from "./support-auth";
import { createTemplateDashboard } from "./support-dashboard";

/** Another site (another port) whose page frames whatever iframe snippet it is given. */
async function hostSite(snippet: () => string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(
      `<!doctype html><html><body style="margin:0;font-family:sans-serif"><h1>Client intranet</h1>${snippet()}</body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "localhost", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The host page as a visitor sees it. Not a full-page capture: Chromium leaves a cross-site frame
 * (its own process) blank in those.
 */
async function frameShot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

test("an embed link made from the Sharing menu shows the dashboard inside another site; revoking it shows the expired state", async ({
  page,
  browser,
}) => {
  await signUp(page, "Erin Embed");
  const { permalink } = await createTemplateDashboard(page, "Embedded report");
  await page.goto(`/dashboards/${permalink}`);
  await expect(page.getByRole("heading", { level: 1, name: "Embedded report" })).toBeVisible();

  await page.getByRole("button", { name: "Sharing" }).click();
  await expect(page.getByRole("menuitem", { name: "Embed" })).toBeVisible();
  await page.waitForTimeout(300); // the menu's fade-in, for the screenshot
  await snap(page, "share-menu-1280");
  await page.getByRole("menuitem", { name: "Embed" }).click();
  const dialog = page.getByRole("dialog", { name: "Embed this dashboard" });
  await dialog.getByLabel("Lifetime (days)").fill("7");
  await dialog.getByRole("button", { name: "Create embed link" }).click();
  const snippet = (await dialog.getByTestId("embed-snippet").textContent()) ?? "";
  expect(snippet).toMatch(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/dashboards\/[^/]+\/embed\?token=\d+\.[\w-]+"/);
  await snap(page, "embed-dialog-1280");

  let served = snippet;
  const site = await hostSite(() => served);
  try {
    const visitor = await browser.newContext();
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(site.url);
    const frame = visitorPage.frameLocator("iframe");
    await expect(frame.getByRole("heading", { level: 1, name: "Embedded report" })).toBeVisible();
    // Widgets render with their data, as an anonymous visitor, and without any editing chrome.
    await expect
      .poll(() => frame.locator("article.dash-card[data-state='ready']").count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await expect(frame.getByRole("button", { name: "Sharing" })).toHaveCount(0);
    // Copy URL would hand on the address with its signed token: the embedded view does not offer it.
    await expect(frame.getByRole("button", { name: "Copy URL" })).toHaveCount(0);
    await expect(frame.getByRole("complementary", { name: "Dashboard sidebar" })).toHaveCount(0);
    await frameShot(visitorPage, "embedded-view-1280");
    await visitorPage.setViewportSize({ width: 390, height: 844 });
    // The frame is 100% wide: on a phone the dashboard inside reflows to it (single column).
    await expect.poll(() => frame.locator("body").evaluate((body) => body.clientWidth)).toBeLessThanOrEqual(390);
    await expect(frame.getByRole("heading", { level: 1, name: "Embedded report" })).toBeInViewport();
    await visitorPage.waitForTimeout(500); // charts resize after the frame does
    await frameShot(visitorPage, "embedded-view-390");

    // The plain dashboard page is not frameable: the same site framing it gets nothing.
    const plain = `<iframe src="http://127.0.0.1:${new URL(page.url()).port}/dashboards/${permalink}"></iframe>`;
    served = plain;
    const blocked = visitorPage.waitForEvent("console", {
      predicate: (m) => /frame-ancestors/i.test(m.text()),
      timeout: 10_000,
    });
    await visitorPage.goto(site.url);
    await blocked;

    // The owner revokes every embed link: the frame now says the link expired.
    await dialog.getByRole("button", { name: "Revoke all embed links" }).click();
    await expect(dialog.getByText("Every embed link made so far has been revoked.")).toBeVisible();
    served = snippet;
    await visitorPage.setViewportSize({ width: 1280, height: 800 });
    await visitorPage.goto(site.url);
    await expect(frame.getByText("This embed link has expired or was revoked")).toBeVisible();
    await frameShot(visitorPage, "embedded-expired-1280");
    await visitor.close();
  } finally {
    await site.close();
  }
});

test("the owner sets a password from the Sharing menu and a public visitor is asked for it", async ({
  page,
  browser,
}) => {
  await signUp(page, "Paula Password");
  const { permalink } = await createTemplateDashboard(page, "Protected report");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/dashboards/${permalink}`);
  await page.getByRole("button", { name: "Sharing" }).click();
  await expect(page.getByRole("menuitem", { name: "Refresh permalink" })).toBeVisible();
  await page.waitForTimeout(300); // the menu's fade-in, for the screenshot
  await snap(page, "share-menu-390");
  await page.getByRole("menuitem", { name: "Set password" }).click();
  const dialog = page.getByRole("dialog", { name: "Dashboard password" });
  await dialog.getByLabel("Password").fill("open-sesame");
  await dialog.getByRole("button", { name: "Save password" }).click();
  await expect(dialog).toBeHidden();

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`/dashboards/${permalink}`);
  const prompt = visitorPage.getByLabel("Password");
  await expect(prompt).toBeVisible();
  await prompt.fill("open-sesame");
  await prompt.press("Enter");
  await expect(visitorPage.getByRole("heading", { level: 1, name: "Protected report" })).toBeVisible();

  // Removing it opens the dashboard to anyone with the link again.
  await page.getByRole("button", { name: "Sharing" }).click();
  await page.getByRole("menuitem", { name: "Change or remove password" }).click();
  await page
    .getByRole("dialog", { name: "Dashboard password" })
    .getByRole("button", { name: "Remove password" })
    .click();
  const fresh = await browser.newContext();
  const freshPage = await fresh.newPage();
  await freshPage.goto(`/dashboards/${permalink}`);
  await expect(freshPage.getByRole("heading", { level: 1, name: "Protected report" })).toBeVisible();
  await visitor.close();
  await fresh.close();
});

test("refreshing the permalink asks first, then moves the owner to the new address", async ({ page }) => {
  await signUp(page, "Rory Refresh");
  const { permalink } = await createTemplateDashboard(page, "Moving report");
  await page.goto(`/dashboards/${permalink}`);
  await page.getByRole("button", { name: "Sharing" }).click();
  await page.getByRole("menuitem", { name: "Refresh permalink" }).click();
  const dialog = page.getByRole("dialog", { name: "Refresh permalink" });
  await expect(dialog.getByText(/stops working/)).toBeVisible();
  await dialog.getByRole("button", { name: "Refresh permalink" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/dashboards/${permalink}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Moving report" })).toBeVisible();
  const old = await page.request.get(`/api/dashboards/${permalink}`, {
    headers: { "x-requested-with": "XMLHttpRequest" },
  });
  expect(old.status()).toBe(404);
});
