import path from "node:path";
import { expect, type Locator, type Page, test } from "./fixtures";
import { connectThroughPopup, downloadDashboardPdf, SCREENSHOTS, snap } from "./support";
import { signUp } from "./support-auth";
import { choose, createDashboard, expectSaved, liveChartWidget, readyWidget, widgetDrawer } from "./support-dashboard";
import { incidentDashboard } from "./support-insights";

/**
 * Goals (docs/product.md, "Goals"): an owner sets a monthly target on a Google Analytics 4 widget in its
 * settings; the widget shows how far along it is and its pace, and the client's shared link, the print
 * view and the PDF say the same. The fake Google's numbers are fixed per day (test/fakes: sessions of
 * property 2001 on day d of a month are 100 + d + 6), so the figures so far are recomputed here from
 * the dashboard's own range; the pace (a projection of the days to come) is the server's to work out.
 */

const TARGET = 5000;

/** GA4 sessions on one day of property 2001 at the fake Google (connectors/google/fake.ts fakeValue). */
const fakeSessions = (day: string) => 100 + Number(day.slice(8)) + (2001 % 7);

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * What a monthly goal on sessions says so far, for a dashboard whose range ends on `endDate`, seen on
 * `today`: the month holding the range's last day, its days with numbers (through yesterday, or the
 * month's end), the sessions of those days and the days still to come (today included).
 */
function monthSoFar(endDate: string, today: string) {
  const start = `${endDate.slice(0, 8)}01`;
  const next = new Date(msOf(start));
  next.setUTCMonth(next.getUTCMonth() + 1);
  const last = dayOf(next.getTime() - DAY);
  const yesterday = dayOf(msOf(today) - DAY);
  // Days are yyyy-MM-dd: in order as text.
  const through = [yesterday, last].sort()[0];
  let sessions = 0;
  for (let at = msOf(start); at <= msOf(through); at += DAY) sessions += fakeSessions(dayOf(at));
  const daysLeft = Math.max(0, Math.round((msOf(last) - msOf(through)) / DAY));
  return { sessions, daysLeft };
}

/**
 * What the line must start with: the month it counts, then its figures, 'November: 3,374 of 5,000 (67 %)
 * · 2 days left' (or '· ended'); the month is named because the card's range may be another.
 */
function expectedLead(endDate: string, today: string): string {
  const { sessions, daysLeft } = monthSoFar(endDate, today);
  const share = Math.round((sessions / TARGET) * 100);
  const time = daysLeft === 0 ? "ended" : daysLeft === 1 ? "1 day left" : `${daysLeft} days left`;
  const month = new Intl.DateTimeFormat("en-US", { month: "long", timeZone: "UTC" }).format(msOf(endDate));
  return `${month}: ${sessions.toLocaleString("en-US")} of ${TARGET.toLocaleString("en-US")} (${share} %) · ${time}`;
}

/** Opens the widget's settings and its Goals section. */
async function openGoals(page: Page, title: string): Promise<Locator> {
  const card = page.getByRole("main").getByRole("article", { name: title, exact: true });
  await card.hover();
  await card.getByRole("button", { name: "Widget menu" }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  const drawer = widgetDrawer(page);
  await expect(drawer).toBeVisible();
  await drawer.getByRole("button", { name: /^Goals/ }).click();
  return drawer;
}

/** Adds a data widget of the fake Google's acme.com property through the settings drawer. */
async function addGa4Widget(
  page: Page,
  title: string,
  format: string,
  dimension?: string,
  beforeSave?: (drawer: Locator) => Promise<void>,
): Promise<void> {
  await page.getByRole("button", { name: "Add widget" }).click();
  const drawer = widgetDrawer(page);
  await choose(page, drawer, "Source", "analytics@acme.example");
  await choose(page, drawer, "Widget type", "Google Analytics 4");
  await choose(page, drawer, "Account", "Acme Agency");
  await choose(page, drawer, "Property", "acme.com – GA4");
  if (dimension) await choose(page, drawer, "Dimension", dimension);
  await choose(page, drawer, "Metrics", "Sessions");
  await drawer.getByLabel("Title", { exact: true }).fill(title);
  await choose(page, drawer, "Format", format);
  await beforeSave?.(drawer);
  await drawer.getByRole("button", { name: "Save" }).click();
  await expect(drawer).toBeHidden();
}

/** Adds a monthly sessions goal in the open drawer, with this target typed. */
async function addMonthlyGoal(drawer: Locator, target: string): Promise<void> {
  await drawer.getByRole("button", { name: "Add goal" }).click();
  const goal = drawer.getByRole("group", { name: "Goal 1" });
  await expect(goal.getByLabel("Metric", { exact: true })).toHaveValue("Sessions");
  await expect(goal.getByLabel("Target for", { exact: true })).toHaveValue("Each month");
  await goal.getByLabel("Target", { exact: true }).fill(target);
}

test("an owner sets a monthly goal in a widget's settings; the widget, the client's link, the print view and the PDF show its pace", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signUp(page);
  await connectThroughPopup(page, "Google Analytics");
  await expect(page.getByText("analytics@acme.example").first()).toBeVisible();
  const dashboardPath = await createDashboard(page, "Acme goals");
  const permalink = dashboardPath.split("/")[2];

  const asked = page.waitForRequest((request) => request.url().endsWith("/api/widgets/data"));
  await addGa4Widget(page, "Sessions this month", "Summary");
  const { endDate, timezone } = (await asked).postDataJSON() as { endDate: string; timezone: string };
  await readyWidget(page, "Sessions this month");

  // A target that cannot be: the contract's message at the field, and Save stays off.
  const drawer = await openGoals(page, "Sessions this month");
  await addMonthlyGoal(drawer, "-5");
  const target = drawer.getByRole("group", { name: "Goal 1" }).getByLabel("Target", { exact: true });
  await expect(target).toHaveAccessibleDescription(/The target may not be negative\./);
  await expect(drawer.getByRole("button", { name: "Save" })).toBeDisabled();
  // Fixed, it saves; the request of the widget's data now carries the goal.
  await target.fill(String(TARGET));
  await expect(target).not.toHaveAccessibleDescription(/may not be negative/);
  await snap(page, "goals-editor");
  const withGoal = page.waitForRequest(
    (request) => request.url().endsWith("/api/widgets/data") && "goals" in (request.postDataJSON() ?? {}),
  );
  // The server has the last word: this one save reaches it with the target altered on its way (as an
  // older tab's form could send it). Its 422 reopens the widget's settings with the message at the field.
  let altered = false;
  await page.route("**/api/dashboards/*", (route) => {
    const body = route.request().postData() ?? "";
    if (altered || route.request().method() !== "POST" || !body.includes(`"target":${TARGET}`)) return route.fallback();
    altered = true;
    return route.continue({ postData: body.replace(`"target":${TARGET}`, '"target":-5') });
  });
  const refused = page.waitForResponse(
    (response) => response.request().method() === "POST" && response.status() === 422,
  );
  await drawer.getByRole("button", { name: "Save" }).click();
  expect((await (await refused).json()).errors).toEqual({
    "widgets.0.goals.0.target": ["The target may not be negative."],
  });
  const reopened = widgetDrawer(page);
  await expect(reopened).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Edit widget" })).toBeVisible();
  const refusedTarget = reopened.getByRole("group", { name: "Goal 1" }).getByLabel("Target", { exact: true });
  await expect(refusedTarget).toHaveAccessibleDescription(/The target may not be negative\./);
  await expect(reopened.getByText("Correct the goals the server refused.")).toBeVisible();
  await expect(reopened.getByRole("button", { name: "Save" })).toBeDisabled();
  // No toast: the sidebar's status alone says the save failed, the form says why.
  await expect(page.locator(".mantine-Notification-root")).toHaveCount(0);
  await snap(page, "goals-editor-refused");
  // Typed anew, the message goes and the save goes through unaltered.
  await refusedTarget.fill("");
  await refusedTarget.fill(String(TARGET));
  await expect(refusedTarget).not.toHaveAccessibleDescription(/may not be negative/);
  await reopened.getByRole("button", { name: "Save" }).click();
  await expect(reopened).toBeHidden();
  await withGoal;
  await expectSaved(page);

  const today = new Intl.DateTimeFormat("en-CA", { timeZone: timezone }).format(new Date());
  const lead = expectedLead(endDate, today);
  const card = await readyWidget(page, "Sessions this month");
  const line = card.getByTestId("goal-line");
  await expect(line).toHaveText(
    new RegExp(
      `^${lead.replace(/[().+]/g, "\\$&")} · (on pace for [\\d,]+, <?\\d+ % (short|ahead)|target met|<?\\d+ % short)$`,
    ),
  );
  const shown = (await line.textContent()) ?? "";
  // The bar says as much to a screen reader, and words (not colour alone) say the verdict.
  const bar = card.getByRole("meter", { name: "Sessions towards its goal" });
  const { sessions } = monthSoFar(endDate, today);
  await expect(bar).toHaveAttribute("value", String(Math.min(100, Math.round((sessions / TARGET) * 100))));

  // A line chart of the same sessions by day, drawn with the reader's pointer resting on it (so its live
  // chart takes over from its first snapshot while that is drawn), then given the goal in its settings:
  // the card is drawn again, ready, with its target line.
  await addGa4Widget(page, "Sessions by day", "Line Chart", "Date");
  const lineCard = page.getByRole("main").getByRole("article", { name: "Sessions by day", exact: true });
  await lineCard.hover();
  await expectSaved(page);
  await liveChartWidget(page, "Sessions by day");
  const chartDrawer = await openGoals(page, "Sessions by day");
  await addMonthlyGoal(chartDrawer, String(TARGET));
  await chartDrawer.getByRole("button", { name: "Save" }).click();
  await expect(chartDrawer).toBeHidden();
  await expectSaved(page);
  const chart = await readyWidget(page, "Sessions by day");
  const monthDays = new Date(Date.UTC(Number(endDate.slice(0, 4)), Number(endDate.slice(5, 7)), 0)).getUTCDate();
  const perDay = Math.round(TARGET / monthDays).toLocaleString("en-US");
  await expect(chart.getByRole("img", { name: `Sessions by day chart, target ${perDay} a day` })).toBeVisible();
  await expect(chart.getByTestId("goal-line")).toHaveText(shown);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.locator('article.dash-card[data-ready="false"]')).toHaveCount(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, `goals-dashboard-${width}.png`), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // The client on the shared link reads the same line.
  const client = await browser.newPage();
  await client.goto(dashboardPath);
  await expect(
    (await readyWidget(client, "Sessions this month")).getByTestId("goal-line"),
    "the public view's line",
  ).toHaveText(shown);
  await client.setViewportSize({ width: 390, height: 900 });
  await snap(client, "goals-public-390");

  // The print view (what the PDF captures): the same line, and the target line named on the chart's SVG.
  await page.goto(`/dashboards/${permalink}/print`);
  await expect(page.locator("html")).toHaveAttribute("data-print-ready", "true", { timeout: 30_000 });
  await expect(
    page.getByRole("article", { name: "Sessions this month" }).getByTestId("goal-line"),
    "the print view's line",
  ).toHaveText(shown);
  await expect(page.getByRole("article", { name: "Sessions by day" }).locator("svg text")).toContainText([
    `Target ${perDay} a day`,
  ]);

  // The PDF the client downloads says it too; its first page is kept as a picture to look at.
  const text = await downloadDashboardPdf(client, "goals-pdf");
  expect(text).toContain(shown.replace(/\s+/g, " "));
  expect(text).toContain(`Target ${perDay} a day`);
  await client.close();
});

test("a goal's bar has room on one-row cards: it touches neither a key figure's comparison nor a line chart's axis labels, at 1280 and 390 px", async ({
  page,
  browser,
}) => {
  // Without their insight lines (the owner may hide them): the row holds the figures and the goal alone.
  const goals = { goals: [{ metric: "a.sessions", target: 100000, period: "month" }], hiddenInsights: true };
  // Clear space between a text's box and the bar, not merely not overlapping.
  const GAP = 4;
  const { path: dashboardPath } = await incidentDashboard(page, "Goals one row", [
    {
      id: "kpi",
      title: "Sessions one row",
      format: "summary",
      inputs: { metrics: ["sessions"] },
      width: 2,
      height: 1,
      extra: goals,
    },
    {
      id: "kpis",
      title: "Two figures one row",
      format: "summary",
      inputs: { metrics: ["sessions", "users"] },
      width: 2,
      height: 1,
      extra: goals,
    },
    // With their insight lines: the line gives way (one line, cut short, whole in its title).
    {
      id: "kpi-insight",
      title: "Sessions one row with its insight",
      format: "summary",
      inputs: { metrics: ["sessions"] },
      width: 2,
      height: 1,
      extra: { goals: goals.goals },
    },
    {
      id: "kpis-insight",
      title: "Two figures one row with their insight",
      format: "summary",
      inputs: { metrics: ["sessions", "users"] },
      width: 2,
      height: 1,
      extra: { goals: goals.goals },
    },
    {
      id: "line",
      title: "Sessions by day one row",
      format: "chart:line",
      inputs: { dimension: "date", metrics: ["sessions"] },
      width: 4,
      height: 1,
      extra: goals,
    },
    {
      id: "line2",
      title: "Sessions by day two rows",
      format: "chart:line",
      inputs: { dimension: "date", metrics: ["sessions"] },
      width: 4,
      height: 2,
      extra: goals,
    },
  ]);
  // As the client sees it (the owner's sidebar covers a phone's screen).
  const client = await browser.newPage();
  await client.goto(dashboardPath);
  // The summary at the top settles first: the cards move down once it has its goals' count.
  await expect(client.getByTestId("insights-goals")).toBeVisible();
  const box = async (locator: Locator) => {
    const found = await locator.boundingBox();
    expect(found, String(locator)).not.toBeNull();
    return found as { x: number; y: number; width: number; height: number };
  };
  for (const width of [1280, 390]) {
    await client.setViewportSize({ width, height: 900 });
    await expect(client.locator('article.dash-card[data-ready="false"]')).toHaveCount(0);
    for (const title of [
      "Sessions one row",
      "Two figures one row",
      "Sessions one row with its insight",
      "Two figures one row with their insight",
    ]) {
      const card = client.getByRole("article", { name: title, exact: true });
      const bar = await box(card.locator(".dash-goal-bar").first());
      for (const compare of await card.locator(".dash-kpi-previous").all()) {
        const seen = await box(compare);
        expect(seen.y + seen.height + GAP, `${title} at ${width} px: "vs" line above the bar`).toBeLessThanOrEqual(
          bar.y,
        );
      }
      const goal = await box(card.getByTestId("goal-line"));
      const article = await box(card);
      expect(goal.y + goal.height, `${title} at ${width} px: goal line inside the card`).toBeLessThanOrEqual(
        article.y + article.height,
      );
      // Every figure's "vs" line is in sight, not scrolled away under the insight line and the bar.
      for (const compare of await card.locator(".dash-kpi-previous").all()) {
        const seen = await box(compare);
        expect(seen.y, `${title} at ${width} px: "vs" line below the card's top`).toBeGreaterThanOrEqual(article.y);
        expect(seen.y + seen.height, `${title} at ${width} px: "vs" line inside the card`).toBeLessThanOrEqual(
          article.y + article.height,
        );
      }
    }
    for (const title of ["Sessions one row with its insight", "Two figures one row with their insight"]) {
      const insight = client.getByRole("article", { name: title, exact: true }).getByTestId("widget-insight");
      await expect(insight, `${title}: its insight line`).toBeVisible();
      const whole = (await insight.textContent()) ?? "";
      await expect(insight).toHaveAttribute("title", whole);
      const line = await box(insight);
      const lineHeight = await insight.evaluate((node) => Number.parseFloat(getComputedStyle(node).lineHeight));
      if (width === 1280) {
        // A desk's fixed row: one line, the rest in the title.
        expect(line.height, `${title} at ${width} px: the insight on one line`).toBeLessThan(lineHeight * 1.5 + 2);
      }
    }
    for (const title of ["Sessions by day one row", "Sessions by day two rows"]) {
      const card = client.getByRole("article", { name: title, exact: true });
      const bar = await box(card.locator(".dash-goal-bar").first());
      // The chart keeps its axis labels inside its own box (its grid contains them), drawn as a picture
      // first and live later: the box is what must end above the bar.
      const chart = await box(card.getByRole("img", { name: new RegExp(`^${title} chart`) }));
      expect(
        chart.y + chart.height + GAP,
        `${title} at ${width} px: the chart and its axis labels above the bar`,
      ).toBeLessThanOrEqual(bar.y);
    }
    await client.screenshot({ path: path.join(SCREENSHOTS, `goals-one-row-${width}.png`), fullPage: true });
  }
  await client.close();
});
