import { expect, test } from "@playwright/test";
import { snap } from "./support";
import { signUp } from "./support-auth";
import { connectDemo, createTemplateDashboard, enterEditMode, readyWidget } from "./support-dashboard";

test("Alert me when…: from a widget's menu, the server's 422 under its field, then created, snoozed, paused and deleted", async ({
  page,
}) => {
  await signUp(page);
  await connectDemo(page);
  const { permalink } = await createTemplateDashboard(page, "Alerted client");
  await page.goto(`/dashboards/${permalink}`);
  await enterEditMode(page);
  const card = await readyWidget(page, "Key figures");
  await card.getByRole("button", { name: "Widget menu" }).click();
  await page.getByRole("menuitem", { name: "Alert me when…" }).click();

  const modal = page.getByRole("dialog", { name: "Alerts: Key figures" });
  await expect(modal.getByText("No alerts on this widget yet.")).toBeVisible();
  // The metric select offers the widget's metrics by their labels in its data.
  await expect(modal.getByLabel("Metric", { exact: true })).toHaveValue("Sessions");
  await modal.getByLabel("Value", { exact: true }).fill("1,500");
  await modal.getByLabel("Recipients", { exact: true }).fill("ceo@client.example, nobody@");
  await modal.getByRole("button", { name: "Create alert" }).click();
  await expect(modal.getByText("'nobody@' is not a valid email address.")).toBeVisible();
  await snap(page, "widget-alerts-422");

  await modal.getByLabel("Recipients", { exact: true }).fill("ceo@client.example");
  await modal.getByRole("button", { name: "Create alert" }).click();
  const list = modal.getByRole("list", { name: "Alerts of this widget" });
  await expect(list.getByText("Sessions below 1,500")).toBeVisible();
  await expect(list.getByText("Not checked yet")).toBeVisible();

  await list.getByRole("button", { name: "Snooze a week" }).click();
  await expect(list.getByText(/^Snoozed until /)).toBeVisible();
  await snap(page, "widget-alerts-snoozed");
  // On a phone the list's actions wrap under the rule rather than squeezing it.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(list.getByRole("button", { name: "Un-snooze" })).toBeVisible();
  await page.screenshot({ path: "screenshots/widget-alerts-phone.png" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await list.getByRole("button", { name: "Un-snooze" }).click();
  await list.getByRole("button", { name: "Pause" }).click();
  await expect(list.getByText("Paused")).toBeVisible();
  await list.getByRole("button", { name: "Delete" }).click();
  await expect(modal.getByText("No alerts on this widget yet.")).toBeVisible();
});
