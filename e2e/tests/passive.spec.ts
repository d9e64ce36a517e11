import { expect, test } from "./fixtures";
import { snap } from "./support";
import { signUp } from "./support-auth";
import { choose, createDashboard, enterEditMode, widgetDrawer } from "./support-dashboard";

test("passive widgets: a text card, and dated notes shown only for the period they belong to", async ({ page }) => {
  await signUp(page);
  const path = await createDashboard(page, "Client notes");
  await enterEditMode(page);

  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await drawer.getByRole("radiogroup", { name: "Widget nature" }).getByText("Passive").click();
  await drawer.getByLabel("Title", { exact: true }).fill("Welcome");
  await drawer.getByLabel("Description").fill("<p>Results for <b>Acme</b> <script>alert(1)</script></p>");
  await drawer.getByRole("button", { name: "Save" }).click();
  const card = page.getByRole("article", { name: "Welcome" });
  await expect(card.getByText("Results for")).toBeVisible();
  // HTML is sanitised: the script never reaches the page.
  expect(await card.locator("script").count()).toBe(0);

  await page.getByRole("button", { name: "Add widget" }).click();
  await drawer.getByRole("radiogroup", { name: "Widget nature" }).getByText("Passive").click();
  await choose(page, drawer, "Widget type", "Dated notes");
  await drawer.getByLabel("Title", { exact: true }).fill("What happened");
  await drawer.getByRole("button", { name: "Add note" }).click();
  await drawer.getByLabel("Note header").fill("Spring campaign launched");
  await drawer.getByLabel("From").fill("2026-03-01");
  await drawer.getByLabel("To").fill("2026-03-31");
  await drawer.getByLabel("Note text").fill("Paid search doubled its budget.");
  await snap(page, "widget-form-notes");
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("All changes saved")).toBeVisible();

  await page.goto(`${path}?startDate=2026-03-10&endDate=2026-03-20`);
  const notes = page.getByRole("article", { name: "What happened" });
  await expect(notes.getByText("Spring campaign launched")).toBeVisible();
  await expect(notes.getByText("Mar 01, 2026 – Mar 31, 2026")).toBeVisible();
  await snap(page, "dashboard-notes");
  await page.goto(`${path}?startDate=2026-05-01&endDate=2026-05-31`);
  await expect(
    page.getByRole("article", { name: "What happened" }).getByText("No notes for this period."),
  ).toBeVisible();
});
