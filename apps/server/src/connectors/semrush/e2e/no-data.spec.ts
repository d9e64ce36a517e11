import { expect, test } from "../../../../../../e2e/tests/fixtures";
import { snap } from "../../../../../../e2e/tests/support";
import { signUp } from "../../../../../../e2e/tests/support-auth";
import { choose, createDashboard, widgetDrawer } from "../../../../../../e2e/tests/support-dashboard";

/** The key the SEMrush fake accepts (its fake.ts), typed as a user would paste it. */
const SEMRUSH_FAKE_KEY = "0123456789abcdef0123456789abcdef";

test("SEMrush has nothing yet on a new client's domain: the widget says No data and why, not a Data Error", async ({
  page,
}) => {
  await signUp(page);
  await page.getByRole("article", { name: "SEMrush" }).getByRole("button", { name: "Connect SEMrush" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect SEMrush" });
  const form = dialog.getByRole("form", { name: "Connect SEMrush" });
  // The account is the client's domain, too new for SEMrush's database (the fake knows only acme.com).
  await form.getByLabel("Account").fill("new-client.example");
  await form.getByLabel("API token").fill(SEMRUSH_FAKE_KEY);
  await form.getByRole("button", { name: "Connect SEMrush" }).click();
  await expect(page.getByText("SEMrush connected")).toBeVisible();
  await expect(dialog).toBeHidden();

  await createDashboard(page, "New client SEO");
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await choose(page, drawer, "Source", "new-client.example");
  await choose(page, drawer, "Widget type", "Domain overview");
  await choose(page, drawer, "Database", "United States (google.com)");
  await choose(page, drawer, "Metrics", "Organic traffic");
  await drawer.getByLabel("Title", { exact: true }).fill("Organic traffic");
  await choose(page, drawer, "Format", "Summary");
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(drawer).toBeHidden();

  const card = page.getByRole("main").getByRole("article", { name: "Organic traffic", exact: true });
  await expect(card).toHaveAttribute("data-state", "empty", { timeout: 15_000 });
  await expect(card.getByText("No data for this period")).toBeVisible();
  await expect(card.getByTestId("widget-no-data-reason")).toHaveText(
    "SEMrush has no data for new-client.example in its US database yet (new and small sites are often not in it).",
  );
  await expect(card.getByText("Data Error")).toHaveCount(0);
  await snap(page, "no-data-reason");
});
