import { type Browser, expect, type Page, test } from "@playwright/test";
import { incidentDashboard } from "./support-insights";

/**
 * A dashboard read in its client's language (docs/decisions.md, "Metric and dimension labels in the
 * dashboard's language", "Insights sentences from ICU templates"): the client's public view says the
 * connector's labels and the insights in German with German numbers.
 */

/** A dashboard of several widget kinds over the Demo site's collapse of Organic Search, in `language`. */
function dashboardIn(page: Page, name: string, language: string) {
  const sessionsAndBounces = { metrics: ["sessions", "bounce_rate"] };
  return incidentDashboard(
    page,
    name,
    [
      {
        id: "channels",
        title: "Sessions by channel",
        format: "table",
        inputs: { dimension: "channel", ...sessionsAndBounces },
      },
      {
        id: "days",
        title: "Sessions by day",
        format: "chart:line",
        inputs: { dimension: "date", metrics: ["sessions", "users"] },
      },
      { id: "totals", title: "Totals", format: "summary", inputs: { metrics: ["sessions", "users", "bounce_rate"] } },
      {
        id: "bars",
        title: "Channels compared",
        format: "chart:bar",
        inputs: { dimension: "channel", metrics: ["sessions"] },
      },
      {
        id: "share",
        title: "Channel share",
        format: "chart:pie",
        inputs: { dimension: "channel", metrics: ["sessions"] },
      },
    ],
    { language },
  );
}

async function clientPage(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  return context.newPage();
}

test("a German client's public view says the metric labels and the insights in German, with German numbers", async ({
  page,
  browser,
}) => {
  const { path } = await dashboardIn(page, "Harbor DE", "de");
  const client = await clientPage(browser, 1280);
  await client.goto(path);
  const table = client.getByRole("article", { name: "Sessions by channel" });
  // The connector's labels in German; the channel names are the data's own words.
  await expect(table.getByRole("columnheader", { name: "Kanal" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: /Sitzungen/ })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: /Absprungrate/ })).toBeVisible();
  await expect(table.getByText("Organic Search", { exact: true }).first()).toBeVisible();
  await expect(client.getByRole("article", { name: "Totals" })).toContainText("Nutzer");
  // The insights: German sentences with German numbers and dates, first in the summary and under the card.
  const summary = client.locator(".dash-insights");
  const first = summary.getByRole("link").first();
  // Which of the two movements ranks first depends on the fake's numbers for the run: both are German.
  await expect(first).toHaveText(
    /^(Sitzungen|Nutzer) um [\d,]+\s% gesunken \(−\d{1,3}(\.\d{3})+\) vs\. 6\. Okt\. – 18\. Okt\.; Organic Search trug −[\d.]+ bei/,
  );
  // Under the card: the same kind of German sentence, already in the server's page.
  await expect(table.getByTestId("widget-insight")).toContainText(
    /: (Sitzungen|Nutzer) um [\d,]+\s% gesunken \(−\d{1,3}(\.\d{3})+\) vs\. 6\. Okt\. – 18\. Okt\.; Organic Search trug −[\d.]+ bei/,
  );
  await expect(client.locator('article.dash-card[data-ready="false"]')).toHaveCount(0);
  await client.screenshot({ path: "screenshots/client-language-de.png", fullPage: true });
  await client.context().close();
});
