import { expect, test } from "./fixtures";
import { snap } from "./support";
import { signUp } from "./support-auth";

test("company sources: the whole catalogue, Demo connected, CSV uploaded, a malformed CSV named by line", async ({
  page,
}) => {
  await signUp(page);
  // The catalogue of docs/product.md §3 in display order.
  for (const name of ["Google Analytics", "Search Console", "Facebook Ads", "Instagram", "Klaviyo"]) {
    await expect(page.getByText(name, { exact: false }).first()).toBeVisible();
  }
  // Every connector of the catalogue can be connected on this server (its providers answer next door).
  await expect(page.getByText("Not set up on this server")).toHaveCount(0);
  await expect(page.getByRole("article")).toHaveCount(24);

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
