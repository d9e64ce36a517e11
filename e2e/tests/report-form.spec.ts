import { expect, test } from "./fixtures";
import { snap } from "./support";
import { signUp } from "./support-auth";
import { createTemplateDashboard } from "./support-dashboard";

const MESSAGES = {
  required: "The recipients field is required.",
  invalid: "'not-an-address' is not a valid email address.",
  max: "You can add at most 5 recipients.",
  hour: "The hour must be a whole number from 0 to 23.",
  minute: "The minute must be a whole number from 0 to 59.",
  limit: "You can only set-up 5 automatic reports per dashboard. Remove one to continue.",
  unverified:
    "Your email dns is still not verified. Scheduling automatic report now could cause your emails not to be delivered.",
};

test("Mail reporting from the share menu: every validation message, a scheduled report, the 5-report limit", async ({
  page,
}) => {
  await signUp(page, "Rita Reports");
  const dashboard = await createTemplateDashboard(page, "Client SEO", "seo");
  await page.goto(`/dashboards/${dashboard.permalink}`);
  await page.getByRole("button", { name: "Sharing" }).click();
  await page.getByRole("menuitem", { name: "Mail reporting" }).click();
  const modal = page.getByRole("dialog", { name: "Mail reporting: Client SEO" });
  await expect(modal).toBeVisible();
  await expect(modal.getByTestId("unverified-sender")).toHaveText(MESSAGES.unverified);
  // docs/product.md §9 defaults.
  await expect(modal.getByLabel("Hour")).toHaveValue("8");
  await expect(modal.getByLabel("Minute")).toHaveValue("00");
  await expect(modal.getByLabel("Day of the month")).toHaveValue("First day");
  await expect(modal.getByLabel("Date range")).toHaveValue("Last Month");
  await expect(modal.getByLabel("Preview image in the e-mail")).toBeChecked();
  await expect(modal.getByLabel("Attach the PDF")).not.toBeChecked();
  const schedule = modal.getByRole("button", { name: "Schedule report" });
  // No recipients: the button waits; leaving the field says why.
  await expect(schedule).toBeDisabled();
  const recipients = modal.getByRole("textbox", { name: "Recipients" });
  await recipients.focus();
  await recipients.blur();
  await expect(modal.getByText(MESSAGES.required)).toBeVisible();
  await recipients.fill("ceo@client.example, not-an-address");
  await expect(modal.getByText(MESSAGES.invalid)).toBeVisible();
  await recipients.fill(
    "a@client.example, b@client.example, c@client.example, d@client.example, e@client.example, f@client.example",
  );
  await expect(modal.getByText(MESSAGES.max)).toBeVisible();
  await recipients.fill("ceo@client.example, cmo@client.example");
  await modal.getByLabel("Hour").fill("24");
  await expect(modal.getByText(MESSAGES.hour)).toBeVisible();
  await expect(schedule).toBeDisabled();
  await modal.getByLabel("Hour").fill("9");
  await modal.getByLabel("Minute").fill("60");
  await expect(modal.getByText(MESSAGES.minute)).toBeVisible();
  await modal.getByLabel("Minute").fill("30");
  await modal.getByText("Weekly", { exact: true }).click();
  await modal.getByLabel("Day of the week").click();
  await page.getByRole("option", { name: "Tuesday" }).click();
  await expect(modal.getByTestId("schedule-words")).toContainText("Weekly on Tuesday at 09:30");
  await snap(page, "report-form");
  await expect(schedule).toBeEnabled();
  await schedule.click();
  await expect(modal.getByTestId("dashboard-reports")).toContainText("ceo@client.example, cmo@client.example");

  // Four more through the API: the fifth place is taken, the form says so and will not schedule.
  await page.evaluate(async (id) => {
    for (let index = 0; index < 4; index += 1) {
      await fetch("/api/automatic-reports", {
        method: "POST",
        body: JSON.stringify({ dashboard_id: id, recipients: `team${index}@client.example` }),
        headers: {
          Accept: "application/json",
          "Content-Type": "application/json",
          "x-requested-with": "XMLHttpRequest",
          "x-identification": sessionStorage.getItem("identification") ?? "",
        },
      });
    }
  }, dashboard.id);
  await page.keyboard.press("Escape");
  await page.reload();
  await page.getByRole("button", { name: "Sharing" }).click();
  await page.getByRole("menuitem", { name: "Mail reporting" }).click();
  await expect(modal.getByText(MESSAGES.limit)).toBeVisible();
  await modal.getByRole("textbox", { name: "Recipients" }).fill("sixth@client.example");
  await expect(modal.getByRole("button", { name: "Schedule report" })).toBeDisabled();
});

test("the automatic reports page: edit a report, send it now, and see its last result", async ({ page }) => {
  await signUp(page, "Sam Sender");
  const dashboard = await createTemplateDashboard(page, "Monthly board", "seo");
  const created = await page.evaluate(async (id) => {
    const response = await fetch("/api/automatic-reports", {
      method: "POST",
      body: JSON.stringify({ dashboard_id: id, recipients: "boss@client.example", timezone: "UTC" }),
      headers: {
        Accept: "application/json",
        "Content-Type": "application/json",
        "x-requested-with": "XMLHttpRequest",
        "x-identification": sessionStorage.getItem("identification") ?? "",
      },
    });
    return response.status;
  }, dashboard.id);
  expect(created).toBe(200);
  await page.goto("/company/automatic-reports");
  const row = page.locator("tr", { hasText: "Monthly board" });
  // Phones show the result under the schedule, wider screens in its own column: the visible one counts.
  const lastResult = row.getByTestId("last-result").filter({ visible: true });
  await expect(row.getByText("Not sent yet").filter({ visible: true })).toBeVisible();
  await row.getByRole("button", { name: "Edit the report of Monthly board" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit report: Monthly board" });
  await dialog.getByLabel("Hour").fill("6");
  await dialog.getByRole("button", { name: "Save report" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("Monthly on the first day at 06:00 (UTC)");
  await row.getByRole("button", { name: "Send the report of Monthly board now" }).click();
  await expect(lastResult).toContainText("Sent", { timeout: 60_000 });
  await expect(lastResult).toContainText("By hand");
  await snap(page, "automatic-reports-sent");
  // Every badge of the row ("By hand", "Last Month"…) shows its whole text, on a laptop and on a phone.
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    // Waits out the navigation drawer closing after the resize.
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 5000 })
      .toBeLessThanOrEqual(viewport.width);
    await expect(lastResult.getByText("By hand")).toBeVisible();
    await expect(row.getByText("Last Month").filter({ visible: true })).toBeVisible();
    const badges = await row.locator(".mantine-Badge-root").evaluateAll((elements) =>
      elements
        .filter((badge) => (badge as HTMLElement).offsetParent !== null)
        .map((badge) => {
          const label = badge.querySelector(".mantine-Badge-label") ?? badge;
          return {
            text: badge.textContent,
            overflowing:
              badge.scrollWidth > badge.clientWidth ||
              label.scrollWidth > label.clientWidth ||
              badge.scrollHeight > badge.clientHeight,
          };
        }),
    );
    expect(badges.map((badge) => badge.text)).toEqual(expect.arrayContaining(["By hand", "Last Month", "Sent"]));
    for (const badge of badges) expect(badge.overflowing, `${badge.text} at ${viewport.width} px`).toBe(false);
    await snap(page, `automatic-reports-badges-${viewport.width}`);
  }
});

test.describe("an agency in Berlin", () => {
  test.use({ timezoneId: "Europe/Berlin" });

  test("registers on its own clock: a new automatic report starts in Europe/Berlin, not UTC", async ({ page }) => {
    await signUp(page, "Bea Berlin");
    const dashboard = await createTemplateDashboard(page, "Berlin board", "seo");
    await page.goto(`/dashboards/${dashboard.permalink}`);
    await page.getByRole("button", { name: "Sharing" }).click();
    await page.getByRole("menuitem", { name: "Mail reporting" }).click();
    const modal = page.getByRole("dialog", { name: "Mail reporting: Berlin board" });
    await expect(modal.getByRole("combobox", { name: "Time zone" })).toHaveValue("Europe/Berlin");
    await expect(modal.getByLabel("Hour")).toHaveValue("8");
    await modal.getByRole("textbox", { name: "Recipients" }).fill("ceo@client.example");
    await modal.getByRole("button", { name: "Schedule report" }).click();
    await expect(modal.getByTestId("dashboard-reports")).toContainText("ceo@client.example");
    await snap(page, "report-form-berlin");
    await page.goto("/company/automatic-reports");
    await expect(page.getByText("Monthly on the first day at 08:00 (Europe/Berlin)")).toBeVisible();
  });
});
