import { expect, test } from "@playwright/test";
import { snap } from "./support";
import { signUp } from "./support-auth";

test("company settings: a sender address gets its DNS records to copy, and Verify says what is missing", async ({
  page,
}) => {
  await signUp(page, "Sid Sender");
  await page.goto("/company/settings");
  const address = page.getByLabel("Sender address");
  await address.fill("reports@northwind-agency.com");
  await page.getByRole("button", { name: "Save address" }).click();
  await expect(page.getByTestId("sender-state")).toHaveText("Not verified");
  const records = page.getByTestId("sender-records");
  await expect(records.getByText("TXTnorthwind-agency.com", { exact: true })).toBeVisible();
  await expect(records.getByText(/^v=spf1 include:/)).toBeVisible();
  await expect(records.getByText(/^v=DKIM1; k=rsa; p=/)).toBeVisible();
  await expect(records.getByText("CNAMEbounces.northwind-agency.com")).toBeVisible();
  await page.getByRole("button", { name: "Verify" }).click();
  // No DNS server answers in this test: each record says so, none is verified.
  await expect(records.getByText("The DNS lookup timed out. Try again in a minute.")).toHaveCount(3, {
    timeout: 15_000,
  });
  await expect(records.getByText("Not found")).toHaveCount(3);
  await expect(page.getByTestId("sender-state")).toHaveText("Not verified");
  await snap(page, "sender-settings");
  // A phone keeps the long DKIM value inside the card: nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await snap(page, "sender-settings-phone");
  // Removing the address removes the records.
  await page.setViewportSize({ width: 1280, height: 800 });
  await address.fill("");
  await page.getByRole("button", { name: "Save address" }).click();
  await expect(page.getByTestId("sender-records")).toHaveCount(0);
});
