import { expect, test } from "@playwright/test";
import { snap } from "./support";
import { signUp } from "./support-auth";
import { choose, createDashboard, readyWidget, widgetDrawer } from "./support-dashboard";

test("company sources: the whole catalogue, Demo connected, CSV uploaded, a malformed CSV named by line", async ({
  page,
}) => {
  await signUp(page);
  // The catalogue of docs/product.md §3 in display order, with third-party connectors honest about arriving later.
  for (const name of ["Google Analytics", "Search Console", "Facebook Ads", "Instagram", "Klaviyo"]) {
    await expect(page.getByText(name, { exact: false }).first()).toBeVisible();
  }
  await expect(page.getByText("Coming in a later release")).toBeVisible();

  await page.getByRole("button", { name: "Connect Demo data" }).click();
  await expect(page.getByText("Connected").first()).toBeVisible();

  await page.getByLabel("CSV file").setInputFiles({
    name: "broken.csv",
    mimeType: "text/csv",
    buffer: Buffer.from('date,clicks\n2026-10-01,5\n2026-10-02,"7\n'),
  });
  await page.getByRole("button", { name: "Upload CSV" }).click();
  await expect(page.getByText(/Line \d+: unclosed quote/)).toBeVisible();

  await page.getByLabel("CSV file").setInputFiles({
    name: "campaigns.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("campaign,clicks,cost\nSpring sale,120,45.5\nBrand,300,80\nRetargeting,75,20.25\n"),
  });
  await page.getByRole("button", { name: "Upload CSV" }).click();
  await expect(page.getByText("campaigns.csv").first()).toBeVisible();
  await snap(page, "company-sources-connected");
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, "company-sources-phone");
});

test("dashboards list: create blank and from a template, search, archive, restore, clone", async ({ page }) => {
  await signUp(page);
  await page.goto("/dashboards");
  await snap(page, "dashboards-empty");
  await page.getByRole("link", { name: "Create dashboard" }).first().click();
  await expect(page).toHaveURL(/\/dashboards\/create$/);
  await page.getByLabel("Dashboard name").fill("Acme monthly report");
  await page.getByRole("radio", { name: "Blank dashboard" }).click();
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboards\/[A-Za-z0-9_-]+/);

  await page.goto("/dashboards/create");
  await page.getByLabel("Dashboard name").fill("Website overview for Beta");
  await page.getByRole("radio", { name: "Website overview" }).click();
  await snap(page, "dashboards-create");
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboards\/[A-Za-z0-9_-]+/);

  await page.goto("/dashboards");
  await expect(page.getByRole("article", { name: "Acme monthly report" })).toBeVisible();
  await expect(page.getByRole("article", { name: "Website overview for Beta" })).toBeVisible();
  await snap(page, "dashboards-list");
  await page.getByLabel("Search dashboards").fill("acme");
  await expect(page.getByRole("article", { name: "Website overview for Beta" })).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Acme monthly report" })).toBeVisible();

  await page.getByRole("button", { name: "Actions for Acme monthly report" }).click();
  await page.getByRole("menuitem", { name: "Archive" }).click();
  await expect(page.getByRole("article", { name: "Acme monthly report" })).toHaveCount(0);
  await page.getByRole("radiogroup", { name: "Dashboard status" }).getByText("Archived", { exact: true }).click();
  await expect(page.getByRole("article", { name: "Acme monthly report" })).toBeVisible();
  await page.getByRole("button", { name: "Actions for Acme monthly report" }).click();
  await page.getByRole("menuitem", { name: "Restore" }).click();
  await expect(page.getByRole("article", { name: "Acme monthly report" })).toHaveCount(0);
  await page.getByRole("radiogroup", { name: "Dashboard status" }).getByText("Active", { exact: true }).click();
  await page.getByRole("button", { name: "Actions for Acme monthly report" }).click();
  await page.getByRole("menuitem", { name: "Clone" }).click();
  // The copy joins the list (a notification offers to open it).
  await expect(page.getByRole("article", { name: "Acme monthly report (copy)" })).toBeVisible();
});

test("Google Analytics: Connect opens Google's sign-in in a popup, which closes itself; the source lists its account", async ({
  page,
}) => {
  await signUp(page);
  const popup = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Connect Google Analytics" }).click();
  const window = await popup;
  // The fake Google consents at once and sends the popup back to our callback page, which closes it.
  await window.waitForEvent("close", { timeout: 15_000 });
  await expect(page.getByText("Google Analytics connected")).toBeVisible();
  await expect(page.getByText("analytics@acme.example").first()).toBeVisible();
  await snap(page, "company-sources-google");
});

test("a Google Analytics 4 widget: account, property, metrics and dimension come from Google, and the chart shows Google's numbers", async ({
  page,
}) => {
  await signUp(page);
  const popup = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Connect Google Analytics" }).click();
  await (await popup).waitForEvent("close", { timeout: 15_000 });
  await expect(page.getByText("analytics@acme.example").first()).toBeVisible();

  await createDashboard(page, "Acme GA4");
  const refused: string[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith("/api/") && response.status() >= 400)
      refused.push(`${response.status()} ${url.pathname}`);
  });
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await choose(page, drawer, "Source", "analytics@acme.example");
  await choose(page, drawer, "Widget type", "Google Analytics 4");
  await choose(page, drawer, "Account", "Acme Agency");
  await choose(page, drawer, "Property", "acme.com – GA4");
  await choose(page, drawer, "Dimension", "Session default channel group");
  await choose(page, drawer, "Metrics", "Sessions", "Total users");
  await drawer.getByLabel("Title").fill("Sessions by channel");
  await choose(page, drawer, "Format", "Table");
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(drawer).toBeHidden();
  const card = await readyWidget(page, "Sessions by channel");
  await expect(card.getByRole("columnheader")).toHaveText(["Session default channel group", "Sessions", "Total users"]);
  await expect(card.getByRole("rowheader", { name: "Organic Search", exact: true })).toBeVisible();
  expect(refused).toEqual([]);
  await snap(page, "ga4-widget");
});
