import { expect, test } from "../../../../../../e2e/tests/fixtures";
import { snap } from "../../../../../../e2e/tests/support";
import { signUp } from "../../../../../../e2e/tests/support-auth";
import { choose, createDashboard, readyWidget, widgetDrawer } from "../../../../../../e2e/tests/support-dashboard";
import { AHREFS_KEY, fakeDomainRating } from "../fake";

test("Ahrefs V3: a typed API key is checked with Ahrefs (a wrong one refused in its words, nothing stored); the right one connects and a widget shows Ahrefs' Domain Rating", async ({
  page,
}) => {
  await signUp(page);
  // The catalogue card opens the typed login in a dialog.
  await page.getByRole("article", { name: "Ahrefs V3" }).getByRole("button", { name: "Connect Ahrefs V3" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect Ahrefs V3" });
  const form = dialog.getByRole("form", { name: "Connect Ahrefs V3" });
  await form.getByLabel("Account").fill("Acme SEO");
  await form.getByLabel("API token").fill("not-a-real-key");
  await form.getByRole("button", { name: "Connect Ahrefs V3" }).click();
  // Ahrefs' refusal, under the token, and the form keeps what was typed.
  await expect(form.getByText(/Ahrefs V3 refused these credentials/)).toBeVisible();
  await expect(form.getByLabel("Account")).toHaveValue("Acme SEO");
  await expect(page.getByText("No sources connected yet")).toBeVisible();
  await snap(page, "ahrefs-key-refused");

  await form.getByLabel("API token").fill(AHREFS_KEY);
  await form.getByRole("button", { name: "Connect Ahrefs V3" }).click();
  await expect(page.getByText("Ahrefs V3 connected")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Acme SEO").first()).toBeVisible();

  await createDashboard(page, "Acme SEO");
  const asked = page.waitForRequest((request) => request.url().endsWith("/api/widgets/data"));
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await choose(page, drawer, "Source", "Acme SEO");
  await choose(page, drawer, "Widget type", "Site explorer");
  await drawer.getByLabel("Target (domain or URL)").fill("acme.com");
  await choose(page, drawer, "Mode", "Domain with its subdomains");
  await choose(page, drawer, "Country", "United States");
  await choose(page, drawer, "Metrics", "Domain Rating");
  await drawer.getByLabel("Title", { exact: true }).fill("Domain Rating");
  await choose(page, drawer, "Format", "Summary");
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(drawer).toBeHidden();
  const { endDate } = (await asked).postDataJSON() as { endDate: string };
  const widget = await readyWidget(page, "Domain Rating");
  // A snapshot metric: the value on the range's last day, as Ahrefs reports it.
  await expect(widget).toContainText(String(fakeDomainRating("acme.com", endDate).domain_rating));
  await snap(page, "ahrefs-widget");
});
