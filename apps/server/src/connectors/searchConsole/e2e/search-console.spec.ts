import { expect, test } from "../../../../../../e2e/tests/fixtures";
import { connectThroughPopup, daysFrom, snap } from "../../../../../../e2e/tests/support";
import { signUp } from "../../../../../../e2e/tests/support-auth";
import { choose, createDashboard, readyWidget, widgetDrawer } from "../../../../../../e2e/tests/support-dashboard";
import { FAKE_QUERIES, fakeSearch } from "../fake";

test("Search Console: a table of clicks by query, filtered in the widget form ('does not contain seo'), shows Google's numbers for the other queries only", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUp(page);
  await connectThroughPopup(page, "Search Console");
  await expect(page.getByText("Search Console connected")).toBeVisible();

  await createDashboard(page, "Acme search");
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await choose(page, drawer, "Source", "analytics@acme.example");
  await choose(page, drawer, "Widget type", "Search performance");
  await choose(page, drawer, "Site", "https://acme.com/");
  await choose(page, drawer, "Dimension", "Query");
  await choose(page, drawer, "Metrics", "Clicks");
  // The filter's operator and value appear once something to filter by is chosen.
  await choose(page, drawer, "Filter by", "Query");
  await choose(page, drawer, "Filter operator", "does not contain");
  await drawer.getByLabel("Filter value", { exact: true }).fill("seo");
  await drawer.getByLabel("Title", { exact: true }).fill("Clicks by query");
  await choose(page, drawer, "Format", "Table");
  await snap(page, "search-console-filter-form");
  const asked = page.waitForRequest((request) => request.url().endsWith("/api/widgets/data"));
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(drawer).toBeHidden();
  const { startDate, endDate } = (await asked).postDataJSON() as { startDate: string; endDate: string };

  const card = await readyWidget(page, "Clicks by query");
  const clicksOf = (query: number) =>
    daysFrom(startDate, endDate).reduce((sum, day) => sum + (fakeSearch(day, query)?.clicks ?? 0), 0);
  for (const [index, query] of FAKE_QUERIES.entries()) {
    const row = card.getByRole("row", { name: new RegExp(query) });
    if (query.includes("seo")) await expect(row).toHaveCount(0);
    else await expect(row).toContainText(clicksOf(index).toLocaleString("en-US"));
  }
  // The card says it is filtered: a client must not read it as every query's clicks.
  await expect(card.getByTestId("widget-filter")).toHaveText("Filter: Query does not contain “seo”");
  // Under the title, before the table it qualifies: read first, not after the last row.
  const filterBox = await card.getByTestId("widget-filter").boundingBox();
  const tableBox = await card.getByRole("table").boundingBox();
  expect(filterBox && tableBox && filterBox.y + filterBox.height <= tableBox.y).toBe(true);
  await snap(page, "search-console-filtered-widget");

  // A filter that matches nothing: the card says both that there is no data and why.
  await card.getByRole("button", { name: "Widget menu" }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  await choose(page, drawer, "Filter operator", "contains");
  await drawer.getByLabel("Filter value", { exact: true }).fill("no such query");
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(drawer).toBeHidden();
  await expect(card.getByText("No data for this period")).toBeVisible();
  await expect(card.getByTestId("widget-filter")).toHaveText("Filter: Query contains “no such query”");
});
