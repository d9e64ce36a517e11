import { expect, test } from "../../../../../../e2e/tests/fixtures";
import { connectThroughPopup, snap } from "../../../../../../e2e/tests/support";
import { signUp } from "../../../../../../e2e/tests/support-auth";
import { choose, createDashboard, readyWidget, widgetDrawer } from "../../../../../../e2e/tests/support-dashboard";

test("Facebook Ads: Connect opens Meta's consent in a popup; a table of spend by campaign shows Meta's numbers in the account's currency", async ({
  page,
}) => {
  await signUp(page);
  await connectThroughPopup(page, "Facebook Ads");
  await expect(page.getByText("Facebook Ads connected")).toBeVisible();
  // The source is named by the Meta user it reads as (the fake's /me).
  await expect(page.getByText("Ada Marketing").first()).toBeVisible();

  await createDashboard(page, "Acme ads");
  const refused: string[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith("/api/") && response.status() >= 400)
      refused.push(`${response.status()} ${url.pathname}`);
  });
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await choose(page, drawer, "Source", "Ada Marketing");
  await choose(page, drawer, "Widget type", "Facebook Ads insights");
  await choose(page, drawer, "Ad account", "Acme Shop");
  await choose(page, drawer, "Dimension", "Campaign");
  await choose(page, drawer, "Metrics", "Amount spent", "Link clicks");
  await drawer.getByLabel("Title", { exact: true }).fill("Spend by campaign");
  await choose(page, drawer, "Format", "Table");
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(drawer).toBeHidden();

  const card = await readyWidget(page, "Spend by campaign");
  await expect(card.getByRole("columnheader")).toHaveText(["Campaign", "Amount spent", "Link clicks"]);
  const sale = card.getByRole("row", { name: /Acme Shop – Sale/ });
  const leads = card.getByRole("row", { name: /Acme Shop – Leads/ });
  await expect(sale).toBeVisible();
  await expect(leads).toBeVisible();
  // Money in the ad account's currency (EUR), and the total is the rows' sum, as an agency would check it.
  const spent = async (row: ReturnType<typeof card.getByRole>) => {
    const text = (await row.getByRole("cell").nth(0).textContent()) ?? "";
    // The cell also holds the change against the previous period: the amount is the euro figure.
    const amount = /€\s?([\d,]+(?:\.\d+)?)/.exec(text)?.[1];
    expect(amount, text).toBeDefined();
    return Number(amount?.replace(/,/g, ""));
  };
  const total = await spent(card.getByRole("row", { name: /^Total/ }));
  expect(total).toBeGreaterThan(0);
  expect(Math.abs((await spent(sale)) + (await spent(leads)) - total)).toBeLessThan(0.02);
  expect(refused).toEqual([]);
  await snap(page, "facebook-ads-widget");
});
