import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "./fixtures";
import { incidentDashboard, SESSIONS_BY_CHANNEL_AND_DAY } from "./support-insights";

/**
 * Automatic insights (docs/decisions.md, "Insights wiring: API, settings, page, PDF and e-mail"): on a Demo site whose Organic Search collapsed from Oct 19 to Oct 31,
 * 2026 (the Demo connector's scripted incident), the widget says so under its title and the dashboard's
 * summary says it at the top, as a link to the widget, for the agency and for its client alike.
 */

test("a dashboard says what changed, under the widget and in a summary that leads to it", async ({ page, browser }) => {
  const { path } = await incidentDashboard(page, "Harbor Outfitters", SESSIONS_BY_CHANNEL_AND_DAY);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(path);
    const summary = page.getByRole("region", { name: "Insights" });
    const statement = summary.getByRole("link", { name: /^Sessions down [\d.]+% \(−[\d,]+\) vs Oct 6 – Oct 18/ });
    await expect(statement).toBeVisible();
    const card = page.getByRole("article", { name: "Sessions by channel" });
    await expect(card.getByTestId("widget-insight")).toContainText(
      /Insights: Sessions down .*Organic Search contributed −/,
    );
    // Drawn before the picture is taken (every card settled on its data).
    await expect(page.locator('article.dash-card[data-ready="false"]')).toHaveCount(0);
    await page.screenshot({ path: `screenshots/insights-${width}.png`, fullPage: true });
    // Nothing runs past the screen's edge (the header's buttons share one row on a phone).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // The summary and the lines read well with a screen reader and have enough contrast.
    const { violations } = await new AxeBuilder({ page })
      .include(".dash-insights")
      .include(".dash-insight-line")
      .analyze();
    expect(violations.filter((violation) => ["serious", "critical"].includes(violation.impact ?? ""))).toEqual([]);
    // The link leads to the widget that says it, and gives it focus (keyboard and screen readers follow).
    await statement.click();
    const target = page.locator(`article.dash-card[data-widget-id="${await statementWidget(page)}"]`);
    await expect(target).toBeFocused();
  }

  // The client on the shared link reads the same statements.
  const client = await browser.newPage();
  await client.goto(path);
  await expect(client.getByRole("region", { name: "Insights" }).getByRole("link").first()).toHaveText(
    (await page.getByRole("region", { name: "Insights" }).getByRole("link").first().textContent()) ?? "",
  );
  await client.close();
});

/** The widget the first summary statement links to (its href names it). */
async function statementWidget(page: Page): Promise<string> {
  const href = await page.getByRole("region", { name: "Insights" }).getByRole("link").first().getAttribute("href");
  return (href ?? "").replace("#widget-", "");
}
