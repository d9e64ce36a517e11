import { expect, test } from "../../../../../../e2e/tests/fixtures";
import { connectThroughPopup, snap } from "../../../../../../e2e/tests/support";
import { signUp } from "../../../../../../e2e/tests/support-auth";
import { choose, createDashboard, widgetDrawer } from "../../../../../../e2e/tests/support-dashboard";

test("Google Sheets: the spreadsheet picker asks Google once the typing pauses for half a second, and finds the spreadsheet by name", async ({
  page,
}) => {
  await signUp(page);
  await connectThroughPopup(page, "Google Sheets");
  await expect(page.getByText("Google Sheets connected")).toBeVisible();

  await createDashboard(page, "Acme sheets");
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await choose(page, drawer, "Source", "analytics@acme.example");
  await choose(page, drawer, "Widget type", "Spreadsheet");
  // Every search the picker sends (docs/product.md §7: remote selects search after 500 ms of quiet typing).
  const searched: Array<{ term: string; at: number }> = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (/^\/api\/sources\/[^/]+\/properties$/.test(url.pathname) && url.searchParams.get("searchTerm")) {
      searched.push({ term: url.searchParams.get("searchTerm") ?? "", at: Date.now() });
    }
  });
  const picker = drawer.getByLabel("Spreadsheet (choose one, or paste its address)", { exact: true });
  await picker.click();
  // Eight keys, 100 ms apart: each comes before the previous one's 500 ms are up, so nothing is asked mid-word.
  const typed = Date.now();
  await picker.pressSequentially("Channel", { delay: 100 });
  const lastKey = Date.now();
  await picker.press("s");
  await expect(page.getByRole("option", { name: "Channels Q1" })).toBeVisible();
  await expect(page.getByRole("option", { name: "Daily traffic" })).toHaveCount(0);
  expect(searched.map((search) => search.term)).toEqual(["Channels"]);
  expect(searched[0].at - lastKey).toBeGreaterThanOrEqual(450);
  expect(lastKey - typed).toBeGreaterThan(500);
  await page.getByRole("option", { name: "Channels Q1" }).click();
  await expect(picker).toHaveValue("Channels Q1");
  await snap(page, "sheets-picker-search");
});
