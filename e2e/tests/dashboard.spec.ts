import { expect, test } from "@playwright/test";
import { snap } from "./support";
import { signUp } from "./support-auth";
import { addWidget, connectDemo, createDashboard, enterEditMode } from "./support-dashboard";

test("explore", async ({ page }) => {
  await signUp(page);
  await connectDemo(page);
  await createDashboard(page, "Acme Software — monthly report");
  console.log("URL", page.url());
  console.log(await page.getByRole("complementary", { name: "Dashboard sidebar" }).ariaSnapshot());
  await enterEditMode(page);
  await page.getByRole("button", { name: "Add widget" }).click();
  console.log(await page.getByRole("dialog").ariaSnapshot());
  await page.keyboard.press("Escape");
  await addWidget(page, {
    source: "Demo data",
    type: "Website analytics",
    property: "acme-software.example (B2B software)",
    dimension: "Date",
    metrics: ["Sessions", "Users"],
    title: "Sessions over time",
    format: "Line Chart",
    size: "4x2",
  });
  await page.getByRole("button", { name: "Date range" }).click();
  console.log(await page.getByRole("dialog").ariaSnapshot());
  await snap(page, "explore");
});
