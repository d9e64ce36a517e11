import { expect, type Page } from "@playwright/test";
import { addWidget, connectDemo, editModeSwitch } from "./support-dashboard";

export const DASHBOARD_DONE =
  "Your first professional reporting dashboard has been successfully created and it's all smooth sailing from here on out!";
export const ACME = "acme-software.example (B2B software)";

export const onboardingPanel = (page: Page) => page.getByRole("region", { name: "Getting started" });
export const onboardingHint = (page: Page) => page.getByTestId("onboarding-hint");

export async function expectHint(page: Page, text: string) {
  await expect(onboardingHint(page)).toBeVisible();
  await expect(onboardingHint(page)).toContainText(text);
}

/** Sets the dashboard's date range through the header's picker (the dashboard flow's step 4). */
export async function pickDateRange(page: Page, range = "Last 7 Days"): Promise<void> {
  await page.getByRole("button", { name: "Date range" }).click();
  const picker = page.getByRole("dialog", { name: "Date range" });
  await picker.getByRole("combobox", { name: "Range type" }).click();
  await page.getByRole("option", { name: range, exact: true }).click();
  await picker.getByRole("button", { name: "Apply" }).click();
}

/**
 * A user whose dashboard flow is at step 1 (just past the intro) follows it to the end by doing what each
 * hint says: create a dashboard, set a source (Demo data), reporting mode, a date range, Copy URL; the
 * congratulations modal closes the flow. `onboarding.spec.ts` proves each step's rules in detail.
 */
export async function followDashboardFlow(page: Page, dashboardName: string): Promise<void> {
  await connectDemo(page);
  await page.goto("/dashboards/create");
  await expect(onboardingPanel(page)).toContainText("0 of 5 done");
  await page.getByLabel("Dashboard name").fill(dashboardName);
  await page.getByRole("radio", { name: "Blank dashboard" }).click();
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboards\/(?!create)[A-Za-z0-9_-]+$/);

  await expectHint(page, "Set a data source for your dashboard.");
  await addWidget(page, {
    source: "Demo data",
    type: "Website analytics",
    property: ACME,
    metrics: ["Sessions", "Users"],
    title: "Visitors",
    format: "Summary",
  });
  await expectHint(page, "Switch off edit mode to see your dashboard in reporting mode.");
  await editModeSwitch(page).click();
  await expectHint(page, "Pick the date range your report shows.");
  await pickDateRange(page);
  await expectHint(page, "Copy the dashboard's URL or download it as a PDF to share it.");
  await page.getByRole("button", { name: "Copy URL" }).click();
  const done = page.getByRole("dialog", { name: "Congratulations!" });
  await expect(done).toContainText(DASHBOARD_DONE);
  await done.getByRole("button", { name: "OK" }).click();
  await expect(onboardingPanel(page)).toBeHidden();
}
