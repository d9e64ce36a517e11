import { expect, test } from "@playwright/test";
import { closesItself, daysFrom, FAKES_URL, snap } from "./support";
import { signUp } from "./support-auth";
import { choose, createDashboard, liveChartWidget, readyWidget, widgetDrawer } from "./support-dashboard";

test("company sources: the whole catalogue, Demo connected, CSV uploaded, a malformed CSV named by line", async ({
  page,
}) => {
  await signUp(page);
  // The catalogue of docs/product.md §3 in display order.
  for (const name of ["Google Analytics", "Search Console", "Facebook Ads", "Instagram", "Klaviyo"]) {
    await expect(page.getByText(name, { exact: false }).first()).toBeVisible();
  }
  // Every connector of the catalogue can be connected on this server (its providers answer next door).
  await expect(page.getByText("Not set up on this server")).toHaveCount(0);
  await expect(page.getByRole("article")).toHaveCount(24);

  await page.getByRole("button", { name: "Connect Demo data" }).click();
  await expect(page.getByText("Connected").first()).toBeVisible();

  await page.getByLabel("CSV file").setInputFiles({
    name: "broken.csv",
    mimeType: "text/csv",
    buffer: Buffer.from('date,clicks\n2026-10-01,5\n2026-10-02,"7\n'),
  });
  await page.getByRole("button", { name: "Upload CSV" }).click();
  await expect(page.getByText(/Line \d+: unclosed quote/)).toBeVisible();

  await page.getByLabel("CSV file").setInputFiles({
    name: "campaigns.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("campaign,clicks,cost\nSpring sale,120,45.5\nBrand,300,80\nRetargeting,75,20.25\n"),
  });
  await page.getByRole("button", { name: "Upload CSV" }).click();
  await expect(page.getByText("campaigns.csv").first()).toBeVisible();
  await snap(page, "company-sources-connected");
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, "company-sources-phone");
});

test("dashboards list: create blank and from a template, search, archive, restore, clone", async ({ page }) => {
  await signUp(page);
  await page.goto("/dashboards");
  await snap(page, "dashboards-empty");
  await page.getByRole("link", { name: "Create dashboard" }).first().click();
  await expect(page).toHaveURL(/\/dashboards\/create$/);
  await page.getByLabel("Dashboard name").fill("Acme monthly report");
  await page.getByRole("radio", { name: "Blank dashboard" }).click();
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboards\/[A-Za-z0-9_-]+/);

  await page.goto("/dashboards/create");
  await page.getByLabel("Dashboard name").fill("Website overview for Beta");
  await page.getByRole("radio", { name: "Website overview" }).click();
  await snap(page, "dashboards-create");
  await page.getByRole("button", { name: "Create dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboards\/[A-Za-z0-9_-]+/);

  await page.goto("/dashboards");
  await expect(page.getByRole("article", { name: "Acme monthly report" })).toBeVisible();
  await expect(page.getByRole("article", { name: "Website overview for Beta" })).toBeVisible();
  await snap(page, "dashboards-list");
  await page.getByLabel("Search dashboards").fill("acme");
  await expect(page.getByRole("article", { name: "Website overview for Beta" })).toHaveCount(0);
  await expect(page.getByRole("article", { name: "Acme monthly report" })).toBeVisible();

  await page.getByRole("button", { name: "Actions for Acme monthly report" }).click();
  await page.getByRole("menuitem", { name: "Archive" }).click();
  await expect(page.getByRole("article", { name: "Acme monthly report" })).toHaveCount(0);
  await page.getByRole("radiogroup", { name: "Dashboard status" }).getByText("Archived", { exact: true }).click();
  await expect(page.getByRole("article", { name: "Acme monthly report" })).toBeVisible();
  await page.getByRole("button", { name: "Actions for Acme monthly report" }).click();
  await page.getByRole("menuitem", { name: "Restore" }).click();
  await expect(page.getByRole("article", { name: "Acme monthly report" })).toHaveCount(0);
  await page.getByRole("radiogroup", { name: "Dashboard status" }).getByText("Active", { exact: true }).click();
  await page.getByRole("button", { name: "Actions for Acme monthly report" }).click();
  await page.getByRole("menuitem", { name: "Clone" }).click();
  // The copy joins the list (a notification offers to open it).
  await expect(page.getByRole("article", { name: "Acme monthly report (copy)" })).toBeVisible();
});

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

/** GA4 sessions on one day of property 2001 at the fake Google (test/fakes/google.ts fakeValue). */
const fakeSessions = (day: string) => 100 + Number(day.slice(8)) + (2001 % 7);

test("a Google Analytics 4 dashboard: Google's numbers in a table and a line chart; Google revoking access raises banner 125 live, the widgets keep their numbers saying why, and re-authorising ends it", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signUp(page);
  const popup = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Connect Google Analytics" }).click();
  await closesItself(popup);
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

test("Facebook Ads: Connect opens Meta's consent in a popup; a table of spend by campaign shows Meta's numbers in the account's currency", async ({
  page,
}) => {
  await signUp(page);
  const popup = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Connect Facebook Ads" }).click();
  await closesItself(popup);
  await expect(page.getByText("Facebook Ads connected")).toBeVisible();
  // The source is named by the Meta user it reads as (the fake's /me).
  await expect(page.getByText("Ada Marketing").first()).toBeVisible();

  await createDashboard(page, "Acme ads");
  const refused: string[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith("/api/") && response.status() >= 400)
      refused.push(`${response.status()} ${url.pathname}`);
  });
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await choose(page, drawer, "Source", "Ada Marketing");
  await choose(page, drawer, "Widget type", "Facebook Ads insights");
  await choose(page, drawer, "Ad account", "Acme Shop");
  await choose(page, drawer, "Dimension", "Campaign");
  await choose(page, drawer, "Metrics", "Amount spent", "Link clicks");
  await drawer.getByLabel("Title", { exact: true }).fill("Spend by campaign");
  await choose(page, drawer, "Format", "Table");
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(drawer).toBeHidden();

  const card = await readyWidget(page, "Spend by campaign");
  await expect(card.getByRole("columnheader")).toHaveText(["Campaign", "Amount spent", "Link clicks"]);
  const sale = card.getByRole("row", { name: /Acme Shop – Sale/ });
  const leads = card.getByRole("row", { name: /Acme Shop – Leads/ });
  await expect(sale).toBeVisible();
  await expect(leads).toBeVisible();
  // Money in the ad account's currency (EUR), and the total is the rows' sum, as an agency would check it.
  const spent = async (row: ReturnType<typeof card.getByRole>) => {
    const text = (await row.getByRole("cell").nth(0).textContent()) ?? "";
    // The cell also holds the change against the previous period: the amount is the euro figure.
    const amount = /€\s?([\d,]+(?:\.\d+)?)/.exec(text)?.[1];
    expect(amount, text).toBeDefined();
    return Number(amount?.replace(/,/g, ""));
  };
  const total = await spent(card.getByRole("row", { name: /^Total/ }));
  expect(total).toBeGreaterThan(0);
  expect(Math.abs((await spent(sale)) + (await spent(leads)) - total)).toBeLessThan(0.02);
  expect(refused).toEqual([]);
  await snap(page, "facebook-ads-widget");
});

test("Google Sheets: the spreadsheet picker asks Google once the typing pauses for half a second, and finds the spreadsheet by name", async ({
  page,
}) => {
  await signUp(page);
  const popup = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Connect Google Sheets" }).click();
  await closesItself(popup);
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
