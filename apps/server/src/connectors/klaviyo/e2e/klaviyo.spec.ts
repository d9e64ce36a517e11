import { expect, test } from "../../../../../../e2e/tests/fixtures";
import { daysFrom, snap } from "../../../../../../e2e/tests/support";
import { signUp } from "../../../../../../e2e/tests/support-auth";
import { choose, createDashboard, readyWidget, widgetDrawer } from "../../../../../../e2e/tests/support-dashboard";
import { fakeKlaviyoEvents, KLAVIYO_KEY } from "../fake";

test("Klaviyo: a typed private key is checked with Klaviyo (a wrong one refused in its words, nothing stored); the right one connects under the account's own name and a widget counts Klaviyo's e-mails", async ({
  page,
}) => {
  await signUp(page);
  // The card says "[beta]"; its button and dialog name Klaviyo plainly.
  await page.getByRole("article", { name: "Klaviyo [beta]" }).getByRole("button", { name: "Connect Klaviyo" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect Klaviyo" });
  const form = dialog.getByRole("form", { name: "Connect Klaviyo" });
  await form.getByLabel("Account").fill("Acme e-mail");
  await form.getByLabel("API token").fill("pk_not-a-real-key");
  await form.getByRole("button", { name: "Connect Klaviyo" }).click();
  // Klaviyo's refusal, under the token, and the form keeps what was typed.
  await expect(form.getByText(/Klaviyo refused these credentials: .*Missing or invalid private key/)).toBeVisible();
  await expect(form.getByLabel("Account")).toHaveValue("Acme e-mail");
  await expect(page.getByText("No sources connected yet")).toBeVisible();
  await snap(page, "klaviyo-key-refused");

  await form.getByLabel("API token").fill(KLAVIYO_KEY);
  await form.getByRole("button", { name: "Connect Klaviyo" }).click();
  await expect(page.getByText("Klaviyo connected")).toBeVisible();
  await expect(dialog).toBeHidden();
  // Named by the account's organisation, as Klaviyo reports it, not by what was typed.
  await expect(page.getByText("Acme Outfitters").first()).toBeVisible();

  await createDashboard(page, "Acme e-mail");
  const asked = page.waitForRequest((request) => request.url().endsWith("/api/widgets/data"));
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await choose(page, drawer, "Source", "Acme Outfitters");
  await choose(page, drawer, "Widget type", "Klaviyo report");
  await choose(page, drawer, "Report on", "Account");
  await choose(page, drawer, "Metrics", "Emails received");
  await drawer.getByLabel("Title", { exact: true }).fill("Emails received");
  await choose(page, drawer, "Format", "Summary");
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(drawer).toBeHidden();
  const { startDate, endDate } = (await asked).postDataJSON() as { startDate: string; endDate: string };
  // Klaviyo's daily counts of the account's "Received Email" events, added up over the range.
  const received = daysFrom(startDate, endDate).reduce((sum, day) => sum + fakeKlaviyoEvents("Received Email", day), 0);
  await expect(await readyWidget(page, "Emails received")).toContainText(received.toLocaleString("en-US"));
  await snap(page, "klaviyo-widget");
});
