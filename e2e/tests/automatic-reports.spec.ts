import { expect, type Page, test } from "./fixtures";
import { snap } from "./support";
import { signUp } from "./support-auth";
import { createDashboard } from "./support-dashboard";

/** An API call from the signed-in page, with the headers the SPA sends (docs/product.md §7). */
async function apiCall(page: Page, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const response = await fetch(url, {
        method,
        headers: {
          Accept: "application/json",
          "Content-Type": "application/json",
          "X-Requested-With": "XMLHttpRequest",
          "x-identification": sessionStorage.getItem("identification") ?? "",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: await response.json().catch(() => null) };
    },
    { method, url, body },
  );
}

test("automatic reports page: the company's reports with schedule in words and next run, and delete", async ({
  page,
}) => {
  await signUp(page);
  await page.goto("/company/automatic-reports");
  await expect(page.getByText("No automatic reports yet.")).toBeVisible();

  const path = await createDashboard(page, "Acme monthly");
  const shown = await apiCall(page, "GET", `/api${path}`);
  const dashboardId = shown.json.data.id as string;
  const monthly = await apiCall(page, "POST", "/api/automatic-reports", {
    dashboard_id: dashboardId,
    recipients: "ceo@acme.example, cmo@acme.example",
    timezone: "Europe/Berlin",
  });
  expect(monthly.status).toBe(200);
  const weekly = await apiCall(page, "POST", "/api/automatic-reports", {
    dashboard_id: dashboardId,
    recipients: "ops@acme.example",
    period: "WEEK",
    detail: 1,
    hour: 17,
    minute: 30,
    timezone: "America/New_York",
    date_range: "LAST_WEEK",
    with_pdf: true,
  });
  expect(weekly.status).toBe(200);

  await page.goto("/company/automatic-reports");
  const monthlyRow = page.locator(`tr[data-report-id="${monthly.json.data.id}"]`);
  const weeklyRow = page.locator(`tr[data-report-id="${weekly.json.data.id}"]`);
  await expect(monthlyRow.getByRole("link", { name: "Acme monthly" })).toBeVisible();
  await expect(monthlyRow.getByText("ceo@acme.example", { exact: true })).toBeVisible();
  await expect(monthlyRow.getByText("cmo@acme.example", { exact: true })).toBeVisible();
  await expect(monthlyRow.getByText("Monthly on the first day at 08:00 (Europe/Berlin)")).toBeVisible();
  await expect(monthlyRow.getByText("Last Month")).toBeVisible();
  // Next run on the report's own clock: the 1st of a month at 08:00.
  await expect(monthlyRow.getByText(/^[A-Z][a-z]{2} 01, \d{4} 08:00$/)).toBeVisible();
  await expect(weeklyRow.getByText("Weekly on Monday at 17:30 (America/New_York)")).toBeVisible();
  await expect(weeklyRow.getByText("PDF", { exact: true })).toBeVisible();
  await expect(weeklyRow.getByText(/^[A-Z][a-z]{2} \d{2}, \d{4} 17:30$/)).toBeVisible();
  await snap(page, "automatic-reports");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(monthlyRow.getByText("Monthly on the first day at 08:00 (Europe/Berlin)")).toBeVisible();
  // Nothing to scroll sideways for on a phone (also waits out the navigation drawer closing after the resize).
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 5000 })
    .toBeLessThanOrEqual(390);
  await snap(page, "automatic-reports-phone");
  await page.setViewportSize({ width: 1280, height: 800 });

  await weeklyRow.getByRole("button", { name: "Delete the report of Acme monthly" }).click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(weeklyRow).toHaveCount(0);
  await page.reload();
  await expect(monthlyRow).toBeVisible();
  await expect(weeklyRow).toHaveCount(0);
});
