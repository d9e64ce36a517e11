import { expect, test } from "../../../../../../e2e/tests/fixtures";
import { closesItself, connectThroughPopup, snap } from "../../../../../../e2e/tests/support";
import { signUp } from "../../../../../../e2e/tests/support-auth";

/** The fakes' server (e2e/playwright.config.ts: the port after the app's). */
const fakes = `http://127.0.0.1:${Number(process.env.E2E_PORT) + 1}`;

test.afterEach(async ({ request }) => {
  // Back to Meta's 60 days for whatever runs next.
  await request.post(`${fakes}/_fake/meta/token-lifetime`, { data: { seconds: null } });
});

test("Facebook Ads: a login ending within the week raises the admins' banner; Reconnect renews it in place; a System User token never ends", async ({
  page,
}) => {
  await signUp(page);
  // Meta hands out a long-lived token that ends in three days.
  const short = await page.request.post(`${fakes}/_fake/meta/token-lifetime`, { data: { seconds: 3 * 86_400 } });
  expect(short.ok()).toBe(true);
  await connectThroughPopup(page, "Facebook Ads");
  await expect(page.getByText("Facebook Ads connected")).toBeVisible();

  // The banner names the source and leads to the sources page.
  await page.goto("/dashboards");
  const banner = page.getByRole("alert").filter({ hasText: "Sources Expiring Soon" });
  await expect(banner).toContainText("Facebook Ads (Ada Marketing)");
  await snap(page, "login-expiry-banner");
  await banner.getByRole("link", { name: "Reconnect" }).click();
  await expect(page).toHaveURL(/\/company\/sources$/);

  // The source's row says when its login ends and offers Reconnect; Meta's next token lasts 60 days.
  await expect(page.getByText(/^Login ends /)).toBeVisible();
  await page.request.post(`${fakes}/_fake/meta/token-lifetime`, { data: { seconds: null } });
  const again = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Reconnect", exact: true }).click();
  // Meta's dialog answers at once, so the popup may be gone before a listener could see it close.
  const reconnecting = await again;
  await closesItself(reconnecting);
  await expect(page.getByText("Source reconnected")).toBeVisible();
  await expect(page.getByText(/^Login ends /)).toHaveCount(0);
  await expect(page.getByText("Sources Expiring Soon")).toHaveCount(0);
  // Still the one source (its widgets name it by id).
  await expect(page.getByText("Ada Marketing", { exact: true })).toHaveCount(1);

  // An agency's System User token, pasted in: checked with Meta, connected, and no end to warn about.
  const { token } = (await (await page.request.post(`${fakes}/_fake/meta/system-user-token`)).json()) as {
    token: string;
  };
  await page.getByRole("button", { name: "Use a System User token instead" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect Facebook Ads" });
  await dialog.getByLabel("System User token").fill("EAAnot-a-token");
  await dialog.getByRole("button", { name: "Connect Facebook Ads" }).click();
  await expect(dialog.getByText(/Facebook Ads refused these credentials/)).toBeVisible();
  await dialog.getByLabel("System User token").fill(token);
  await dialog.getByRole("button", { name: "Connect Facebook Ads" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Reportz reporting", { exact: true })).toBeVisible();
  await expect(page.getByText(/^Login ends /)).toHaveCount(0);
  await snap(page, "login-expiry-sources");
});
