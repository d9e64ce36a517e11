import { expect, test } from "./fixtures";
import { snap } from "./support";
import { signUp } from "./support-auth";
import {
  addWidget,
  connectDemo,
  createDashboard,
  createTemplateDashboard,
  daysAgo,
  displayRange,
  editModeSwitch,
  enterEditMode,
  expectSaved,
  inviteColleague,
  liveChartWidget,
  moveWidgetWithKeyboard,
  pickCompareDays,
  readyWidget,
  uploadCsv,
  widgetTitles,
} from "./support-dashboard";

const ACME = "acme-software.example (B2B software)";

test("a new user builds a dashboard from Demo data, arranges it, sets the range, and finds it all saved after a reload", async ({
  page,
}) => {
  await signUp(page);
  await connectDemo(page);
  await createDashboard(page, "Acme Software — monthly report");
  // A new dashboard opens in edit mode, ready for its first widget.
  await expect(editModeSwitch(page)).toBeChecked();
  await expect(page).not.toHaveURL(/edit=1/);

  await addWidget(page, {
    source: "Demo data",
    type: "Website analytics",
    property: ACME,
    dimension: "Date",
    metrics: ["Sessions", "Users"],
    title: "Sessions over time",
    format: "Line Chart",
    size: "4x2",
  });
  await addWidget(
    page,
    {
      source: "Demo data",
      type: "Website analytics",
      property: ACME,
      dimension: "Channel",
      metrics: ["Sessions", "Conversions", "Revenue"],
      title: "Traffic by channel",
      format: "Table",
      size: "3x2",
      orderBy: "Sessions",
      descending: true,
    },
    async () => snap(page, "widget-form"),
  );
  await addWidget(page, {
    source: "Demo data",
    type: "Website analytics",
    property: ACME,
    metrics: ["Bounce Rate"],
    title: "Bounce rate",
    format: "Gauge",
    size: "1x2",
    minValue: 0,
    maxValue: 100,
  });
  await addWidget(page, {
    source: "Demo data",
    type: "Paid ads",
    property: ACME,
    metrics: ["Impressions", "Clicks", "Cost", "Conversions"],
    title: "Paid ads at a glance",
    format: "Summary",
  });
  await expect(widgetTitles(page)).toHaveText([
    "Sessions over time",
    "Traffic by channel",
    "Bounce rate",
    "Paid ads at a glance",
  ]);

  // Real Demo numbers: the table has channel rows and a total, the summary its four figures.
  const table = page.getByRole("article", { name: "Traffic by channel" });
  await expect(table.getByRole("columnheader", { name: "Revenue" })).toBeVisible();
  // Ordered by sessions, largest first: Organic Search leads the Demo channels.
  await expect(table.getByRole("rowheader").first()).toHaveText("Organic Search");
  await expect(table.getByRole("row", { name: /^Total/ })).toContainText(/\d/);
  const summary = page.getByRole("article", { name: "Paid ads at a glance" });
  for (const metric of ["Impressions", "Clicks", "Cost", "Conversions"])
    await expect(summary.getByText(metric, { exact: true })).toBeVisible();
  await expect(summary).toContainText(/\$[\d,.]+/);

  // Resize: the summary becomes a full-width strip of key numbers.
  await summary.getByRole("button", { name: "Widget size" }).click();
  await page.getByRole("menuitem", { name: "4x1" }).click();
  // Reorder with the keyboard: pick the summary up by its handle, move it to the top, drop it.
  await moveWidgetWithKeyboard(page, "Paid ads at a glance", "ArrowUp", 1);
  const newOrder = ["Paid ads at a glance", "Sessions over time", "Traffic by channel", "Bounce rate"];
  await expect(widgetTitles(page)).toHaveText(newOrder);

  // Date range: Last 7 Days, compared with the same week four weeks earlier.
  const trigger = page.getByRole("button", { name: "Date range" });
  await trigger.click();
  const picker = page.getByRole("dialog", { name: "Date range" });
  await picker.getByRole("combobox", { name: "Range type" }).click();
  await page.getByRole("option", { name: "Last 7 Days", exact: true }).click();
  await picker.getByRole("switch", { name: "Custom Compare" }).click();
  const compareStart = daysAgo(35);
  const compareEnd = daysAgo(29);
  await pickCompareDays(page, compareStart, compareEnd);
  await expect(picker.getByText(displayRange(compareStart, compareEnd))).toBeVisible();
  await picker.getByRole("button", { name: "Apply" }).click();
  const shownRange = displayRange(daysAgo(7), daysAgo(1));
  await expect(trigger).toHaveText(shownRange);
  await expectSaved(page);
  for (const title of newOrder) await readyWidget(page, title);

  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Acme Software — monthly report" })).toBeVisible();
  await expect(widgetTitles(page)).toHaveText(newOrder);
  await expect(trigger).toHaveText(shownRange);
  for (const title of newOrder) await readyWidget(page, title);
  // The summary spans the whole grid like the line chart below it.
  const summaryBox = await page.getByRole("article", { name: "Paid ads at a glance" }).boundingBox();
  const chartBox = await page.getByRole("article", { name: "Sessions over time" }).boundingBox();
  expect(Math.abs((summaryBox?.width ?? 0) - (chartBox?.width ?? 0))).toBeLessThan(2);
  // The comparison is still the custom one.
  await trigger.click();
  await expect(picker.getByRole("switch", { name: "Custom Compare" })).toBeChecked();
  await expect(picker.getByText(displayRange(compareStart, compareEnd))).toBeVisible();
  await picker.getByRole("button", { name: "Cancel" }).click();
  // The size menu marks the summary's saved size.
  await enterEditMode(page);
  await page
    .getByRole("article", { name: "Paid ads at a glance" })
    .getByRole("button", { name: "Widget size" })
    .click();
  await expect(page.getByRole("menuitem", { name: "4x1" })).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("Escape");
  await editModeSwitch(page).click();
  await expect(editModeSwitch(page)).not.toBeChecked();

  for (const title of newOrder) await readyWidget(page, title);
  await snap(page, "dashboard-desktop");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  for (const title of newOrder) await readyWidget(page, title);
  await snap(page, "dashboard-phone");
});

test("a CSV uploaded on Company Sources feeds a Table widget with the file's own numbers", async ({ page }) => {
  await signUp(page);
  await uploadCsv(
    page,
    "q3-campaigns.csv",
    [
      "Campaign,Clicks,Cost,Conversions",
      "Spring sale,1240,$845.50,38",
      'Brand search,3010,"$1,280.75",112',
      "Retargeting,755,$320.25,21",
    ].join("\n"),
  );
  await createDashboard(page, "Q3 campaigns");
  await expect(editModeSwitch(page)).toBeChecked();
  const card = await addWidget(page, {
    source: "CSV upload",
    type: "CSV data",
    property: "q3-campaigns.csv",
    answers: {
      "First row is a header": "Yes",
      "Last row holds totals": "No",
      "First column holds row labels": "Yes",
      "First column holds dates (filter by the date range)": "No",
    },
    dimension: "Campaign",
    metrics: ["Clicks", "Cost", "Conversions"],
    title: "Campaign results",
    format: "Table",
    size: "4x2",
  });
  await expect(card.getByRole("columnheader")).toHaveText(["Campaign", "Clicks", "Cost", "Conversions"]);
  // Each row and the total as the file has them (a file without dates has nothing to compare with).
  const row = (label: string) =>
    card.getByRole("row").filter({ has: card.page().getByRole("rowheader", { name: label, exact: true }) });
  await expect(row("Brand search").getByRole("cell")).toHaveText(["3,010", "$1,280.75", "112"]);
  await expect(row("Retargeting").getByRole("cell")).toHaveText(["755", "$320.25", "21"]);
  await expect(row("Spring sale").getByRole("cell")).toHaveText(["1,240", "$845.50", "38"]);
  await expect(row("Total").getByRole("cell")).toHaveText(["5,005", "$2,446.50", "171"]);
  await expectSaved(page);
  await page.reload();
  await readyWidget(page, "Campaign results");
  await expect(row("Total").getByRole("cell")).toHaveText(["5,005", "$2,446.50", "171"]);
  await snap(page, "dashboard-csv");
});

test("a second user of the company finds Edit mode locked while the first user edits", async ({ page, browser }) => {
  await signUp(page);
  const colleague = await inviteColleague(page, browser, "Cleo Colleague");
  const path = await createDashboard(page, "Shared client report");
  await expect(editModeSwitch(page)).toBeChecked();

  await colleague.goto(path);
  await expect(colleague.getByRole("heading", { level: 1, name: "Shared client report" })).toBeVisible();
  await expect(editModeSwitch(colleague)).toBeDisabled();
  await expect(editModeSwitch(colleague)).not.toBeChecked();
  await expect(
    colleague
      .getByRole("complementary", { name: "Dashboard sidebar" })
      .getByText("Another user is editing this dashboard"),
  ).toBeVisible();
  await snap(colleague, "dashboard-locked");

  // Once the first user leaves edit mode, the colleague may edit.
  await editModeSwitch(page).click();
  await expect(editModeSwitch(page)).not.toBeChecked();
  await colleague.reload();
  await enterEditMode(colleague);
  await colleague.context().close();
});

test("a Copy URL link with start, end and compare dates opens the dashboard on that range", async ({
  page,
  context,
}) => {
  await signUp(page);
  const path = await createDashboard(page, "Link check");
  const [start, end, compareStart, compareEnd] = [daysAgo(20), daysAgo(11), daysAgo(60), daysAgo(51)];
  await page.goto(
    `${path}?startDate=${start}&endDate=${end}&compareStartDate=${compareStart}&compareEndDate=${compareEnd}`,
  );
  const trigger = page.getByRole("button", { name: "Date range" });
  await expect(trigger).toHaveText(displayRange(start, end));
  await trigger.click();
  const picker = page.getByRole("dialog", { name: "Date range" });
  await expect(picker.getByRole("combobox", { name: "Range type" })).toHaveValue("Custom");
  await expect(picker.getByRole("switch", { name: "Custom Compare" })).toBeChecked();
  await expect(picker.getByText(displayRange(compareStart, compareEnd))).toBeVisible();
  await picker.getByRole("button", { name: "Cancel" }).click();

  // Copy URL hands the same range on, and that link opens on it again.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy URL" }).click();
  await expect(page.getByText("Copied successfully")).toBeVisible();
  const copied = new URL(await page.evaluate(() => navigator.clipboard.readText()));
  expect(copied.pathname).toBe(path);
  expect(Object.fromEntries(copied.searchParams)).toEqual({
    startDate: start,
    endDate: end,
    compareStartDate: compareStart,
    compareEndDate: compareEnd,
  });
  await page.goto("/dashboards");
  await page.goto(copied.pathname + copied.search);
  await expect(trigger).toHaveText(displayRange(start, end));

  // Without compare dates the comparison is the period just before.
  await page.goto(`${path}?startDate=${start}&endDate=${end}`);
  await expect(trigger).toHaveText(displayRange(start, end));
  await trigger.click();
  await expect(picker.getByRole("switch", { name: "Custom Compare" })).not.toBeChecked();
  await expect(picker.getByText(displayRange(daysAgo(30), daysAgo(21)))).toBeVisible();
  await picker.getByRole("button", { name: "Cancel" }).click();

  // A whole calendar month travels as month and year.
  const now = new Date();
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const monthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  await page.goto(`${path}?month=${lastMonth.getUTCMonth() + 1}&year=${lastMonth.getUTCFullYear()}`);
  await expect(trigger).toHaveText(
    displayRange(lastMonth.toISOString().slice(0, 10), monthEnd.toISOString().slice(0, 10)),
  );
});

test("on the owner's dashboard the sidebar, sharing menu, reordering and chart tooltips come after the cards, and work", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUp(page);
  const { permalink } = await createTemplateDashboard(page, "Cards first");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboards/${permalink}`);
  // The cards are drawn first; what is not a card is mounted once they are
  // (apps/web/src/features/dashboard/components/DashboardView.tsx, useCardsFirst): each of these comes.
  const trend = await readyWidget(page, "Sessions and users");
  const area = (await liveChartWidget(page, "Sessions and users")).getByRole("img", {
    name: "Sessions and users chart",
  });
  const box = await area.boundingBox();
  await area.hover({ position: { x: (box?.width ?? 300) * 0.5, y: (box?.height ?? 200) * 0.6 } });
  await expect(area.getByText("Sessions (previous)")).toBeVisible();
  await expect(trend).toHaveAttribute("data-ready", "true");

  await page.getByRole("button", { name: "Sharing" }).click();
  await expect(page.getByRole("menuitem", { name: "Embed" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menuitem", { name: "Embed" })).toHaveCount(0);

  await enterEditMode(page);
  const before = await widgetTitles(page).allTextContents();
  await moveWidgetWithKeyboard(page, before[1], "ArrowUp", 1);
  await expect(widgetTitles(page).first()).toHaveText(before[1]);
  await expectSaved(page);
  await page.reload();
  await expect(widgetTitles(page).first()).toHaveText(before[1]);
});
