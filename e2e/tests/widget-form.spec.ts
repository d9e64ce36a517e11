import { expect, test } from "./fixtures";
import { snap } from "./support";
import { signUp } from "./support-auth";
import { choose, createDashboard, readyWidget, uploadCsv, widgetDrawer } from "./support-dashboard";

const QUESTIONS = {
  "First row is a header": "Yes",
  "Last row holds totals": "No",
  "First column holds row labels": "Yes",
  "First column holds dates (filter by the date range)": "No",
} as const;

test("the CSV widget form opens with its yes/no questions answered and asks the server nothing it would refuse", async ({
  page,
}) => {
  await signUp(page);
  await uploadCsv(page, "regions.csv", "Region,Visits,Sales\nNorth,120,45.5\nSouth,300,80\nWest,75,20.25\n");
  await createDashboard(page, "Regional report");

  // Every API answer from here on: none may be a refusal (4xx) or a failure (5xx).
  const refused: string[] = [];
  const optionLists: string[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith("/api/")) return;
    if (response.status() >= 400) refused.push(`${response.status()} ${response.request().method()} ${url.pathname}`);
    const list = /^\/api\/sources\/[^/]+\/([a-z]+)$/i.exec(url.pathname)?.[1];
    if (list) optionLists.push(list);
  });

  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await choose(page, drawer, "Source", "CSV upload");
  await choose(page, drawer, "Widget type", "CSV data");
  // The four questions start answered as most files read.
  for (const [question, answer] of Object.entries(QUESTIONS)) {
    await expect(drawer.getByRole("radiogroup", { name: question }).getByRole("radio", { name: answer })).toBeChecked();
  }
  // The columns depend on the file: their lists wait for it (and say so) instead of being refused.
  await expect(drawer.getByLabel("Dimension", { exact: true })).toBeDisabled();
  await expect(drawer.getByLabel("Metrics", { exact: true })).toBeDisabled();
  await expect(drawer.getByLabel("Metrics", { exact: true })).toHaveAttribute(
    "placeholder",
    "Fill in the fields above first",
  );
  await snap(page, "widget-form-csv-defaults");
  expect(optionLists).not.toContain("columns");
  expect(optionLists).not.toContain("dimensions");

  await choose(page, drawer, "File", "regions.csv");
  await choose(page, drawer, "Sheet", "Sheet 1");
  // With the defaults the first column names the rows, so it is offered as the dimension.
  await choose(page, drawer, "Dimension", "Region");
  await choose(page, drawer, "Metrics", "Visits", "Sales");
  await drawer.getByLabel("Title", { exact: true }).fill("Visits by region");
  await choose(page, drawer, "Format", "Table");
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(drawer).toBeHidden();
  const card = await readyWidget(page, "Visits by region");
  await expect(card.getByRole("columnheader")).toHaveText(["Region", "Visits", "Sales"]);
  await expect(card.getByRole("rowheader", { name: "South", exact: true })).toBeVisible();

  expect(optionLists).toEqual(expect.arrayContaining(["properties", "sheets", "dimensions", "columns"]));
  expect(refused).toEqual([]);
});
