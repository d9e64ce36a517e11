import { expect, test } from "./fixtures";
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

test("company settings: a custom domain for shared dashboards is refused in words when wrong, then shows its CNAME to create, and Verify says the record is missing", async ({
  page,
}) => {
  await signUp(page, "Dora Domain");
  await page.goto("/company/settings");
  const domain = page.getByLabel("Custom domain");
  await domain.fill("https://10.0.0.1/reports");
  await page.getByRole("button", { name: "Save domain" }).click();
  await expect(page.getByText(/The custom domain must be a host name/)).toBeVisible();
  await domain.fill("Reports.Northwind-Agency.com");
  await page.getByRole("button", { name: "Save domain" }).click();
  const record = page.getByTestId("domain-record");
  // Kept as DNS writes it (lower case); the value to point it at is this server's own host.
  await expect(record).toContainText("CNAMEreports.northwind-agency.com");
  await expect(record.locator("pre, code").last()).toHaveText(/127\.0\.0\.1|localhost/);
  await page.getByTestId("domain-record").locator("..").getByRole("button", { name: "Verify" }).click();
  // No DNS server answers in the browser tests: the record is not found, and the domain stays unverified.
  await expect(record.getByText("The DNS lookup timed out. Try again in a minute.")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("Not verified", { exact: true }).last()).toBeVisible();
  await snap(page, "custom-domain-settings");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await snap(page, "custom-domain-settings-phone");
});
