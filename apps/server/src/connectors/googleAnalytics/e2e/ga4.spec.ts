import { expect, test } from "../../../../../../e2e/tests/fixtures";
import { closesItself, connectThroughPopup, daysFrom, FAKES_URL, snap } from "../../../../../../e2e/tests/support";
import { signUp } from "../../../../../../e2e/tests/support-auth";
import {
  choose,
  createDashboard,
  liveChartWidget,
  readyWidget,
  widgetDrawer,
} from "../../../../../../e2e/tests/support-dashboard";

/** GA4 sessions on one day of property 2001 at the fake Google (fakeValue of the Google family fake, connectors/google/fake.ts). */
const fakeSessions = (day: string) => 100 + Number(day.slice(8)) + (2001 % 7);

test("Google Analytics: Connect opens Google's sign-in in a popup, which closes itself; the source lists its account", async ({
  page,
}) => {
  await signUp(page);
  const popup = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Connect Google Analytics" }).click();
  const window = await popup;
  // The fake Google consents at once and sends the popup back to our callback page, which closes it.
  await closesItself(window);
  await expect(page.getByText("Google Analytics connected")).toBeVisible();
  await expect(page.getByText("analytics@acme.example").first()).toBeVisible();
  await snap(page, "company-sources-google");
});

test("a Google Analytics 4 dashboard: Google's numbers in a table and a line chart; Google revoking access raises banner 125 live, the widgets keep their numbers saying why, and re-authorising ends it", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signUp(page);
  await connectThroughPopup(page, "Google Analytics");
  await expect(page.getByText("analytics@acme.example").first()).toBeVisible();

  await createDashboard(page, "Acme GA4");
  const refused: string[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith("/api/") && response.status() >= 400)
      refused.push(`${response.status()} ${url.pathname}`);
  });
  const addGa4Widget = async (title: string, dimension: string, metrics: string[], format: string) => {
    await page.getByRole("button", { name: "Add widget" }).click();
    const drawer = widgetDrawer(page);
    await choose(page, drawer, "Source", "analytics@acme.example");
    await choose(page, drawer, "Widget type", "Google Analytics 4");
    await choose(page, drawer, "Account", "Acme Agency");
    await choose(page, drawer, "Property", "acme.com – GA4");
    await choose(page, drawer, "Dimension", dimension);
    await choose(page, drawer, "Metrics", ...metrics);
    await drawer.getByLabel("Title", { exact: true }).fill(title);
    await choose(page, drawer, "Format", format);
    await drawer.getByRole("button", { name: "Save" }).click();
    await expect(drawer).toBeHidden();
  };
  const asked = page.waitForRequest((request) => request.url().endsWith("/api/widgets/data"));
  await addGa4Widget("Sessions by channel", "Session default channel group", ["Sessions", "Total users"], "Table");
  const { startDate, endDate } = (await asked).postDataJSON() as { startDate: string; endDate: string };
  const days = daysFrom(startDate, endDate);
  const card = await readyWidget(page, "Sessions by channel");
  await expect(card.getByRole("columnheader")).toHaveText(["Session default channel group", "Sessions", "Total users"]);
  // The fake gives Organic Search half the range's sessions: the number Google would show.
  const organic = Math.round(days.reduce((sum, day) => sum + fakeSessions(day), 0) / 2);
  await expect(card.getByRole("row", { name: /Organic Search/ })).toContainText(organic.toLocaleString("en-US"));

  await addGa4Widget("Sessions over time", "Date", ["Sessions"], "Line Chart");
  const line = await liveChartWidget(page, "Sessions over time");
  const drawn = await line.getByRole("img").evaluate((element) => {
    const chart = (element as HTMLElement & { echartsInstance?: { getOption(): unknown } }).echartsInstance;
    return JSON.parse(JSON.stringify(chart?.getOption() ?? null)) as { series: { name: string; data: unknown[] }[] };
  });
  const sessions = drawn.series.find((series) => series.name === "Sessions");
  const points = (sessions?.data ?? []).map((point) =>
    Number(Array.isArray(point) ? point[1] : ((point as { value?: unknown })?.value ?? point)),
  );
  // One point a day, each the fake's sessions of that day.
  expect(points).toEqual(days.map(fakeSessions));
  expect(refused).toEqual([]);
  await snap(page, "ga4-widget");

  // A colleague's view of the same dashboard stays open in another tab.
  const watcher = await context.newPage();
  await watcher.goto(page.url());
  const watched = await readyWidget(watcher, "Sessions by channel");
  await expect(watcher.getByText("Expired Sources")).toHaveCount(0);

  // The client removes the agency's access in their Google account.
  expect((await page.request.post(`${FAKES_URL}/_fake/google/revoke-all`)).ok()).toBe(true);
  // The agency user starts another widget: Google refuses; the source needs re-authorising.
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await choose(page, drawer, "Source", "analytics@acme.example");
  await choose(page, drawer, "Widget type", "Google Analytics 4");
  // An account never opened before: its properties must come from Google, who refuses.
  await choose(page, drawer, "Account", "Client Two");
  await expect(drawer.getByText(/options could not be loaded/)).toBeVisible();

  // Banner 125 reaches the other tab without a reload, and its widgets keep Google's last numbers, saying why.
  await expect(watcher.getByText("Expired Sources")).toBeVisible();
  await expect(watched.getByTestId("widget-stale")).toContainText("Google Analytics needs to be reconnected");
  await expect(watched.getByRole("row", { name: /Organic Search/ })).toContainText(organic.toLocaleString("en-US"));
  await snap(watcher, "ga4-reconnect-needed");

  // Re-authorising from the sources page ends the banner.
  await watcher.goto("/company");
  const again = watcher.waitForEvent("popup");
  await watcher.getByRole("button", { name: "Re-authorise" }).click();
  await closesItself(again);
  await expect(watcher.getByText("Expired Sources")).toHaveCount(0);
  await watcher.goto(page.url());
  await expect((await readyWidget(watcher, "Sessions by channel")).getByTestId("widget-stale")).toHaveCount(0);
});
