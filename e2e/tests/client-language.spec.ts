import { type Browser, expect, type Page, test } from "@playwright/test";
import { callForm } from "./support-api";
import { signUp } from "./support-auth";
import { connectDemo, createDashboard } from "./support-dashboard";

/**
 * A dashboard read in its client's language (docs/decisions.md, "Metric and dimension labels in the
 * dashboard's language", "Insights sentences from ICU templates"): the client's public view says the
 * connector's labels and the insights in German with German numbers.
 */

type Json = Record<string, unknown>;

function widget(sourceId: string, id: string, order: number, title: string, format: string, inputs: Json) {
  return {
    id,
    nature: "interactive",
    realTime: false,
    order,
    hash: id,
    width: 2,
    height: 2,
    title,
    description: null,
    format,
    percent: false,
    hiddenChange: false,
    hiddenHighlight: false,
    rowsLimit: 15,
    orderBy: { column: "dimension", dir: "asc" },
    formatOptions: {},
    instances: [
      {
        id: `${id}-a`,
        type: "demo.analytics",
        prefix: "a",
        sourceId,
        config: "custom",
        currency: null,
        accounts: [],
        inputs: { property: "harbor-outfitters", ...inputs },
        metricsOptions: {},
      },
    ],
  };
}

/** A dashboard of several widget kinds over the Demo site's collapse of Organic Search, in `language`. */
async function dashboardIn(page: Page, name: string, language: string) {
  await signUp(page);
  await connectDemo(page);
  const path = await createDashboard(page, name);
  const permalink = path.split("/")[2];
  const sources = (await callForm(page, "GET", "/api/sources")).data as Json[];
  const sourceId = sources[0].id as string;
  const dashboard = (await callForm(page, "GET", `/api/dashboards/${permalink}`)).data as Json;
  const sessionsAndBounces = { metrics: ["sessions", "bounce_rate"] };
  await callForm(page, "POST", `/api/dashboards/${dashboard.id}`, {
    widgets: JSON.stringify([
      widget(sourceId, "channels", 0, "Sessions by channel", "table", { dimension: "channel", ...sessionsAndBounces }),
      widget(sourceId, "days", 1, "Sessions by day", "chart:line", {
        dimension: "date",
        metrics: ["sessions", "users"],
      }),
      widget(sourceId, "totals", 2, "Totals", "summary", { metrics: ["sessions", "users", "bounce_rate"] }),
      widget(sourceId, "bars", 3, "Channels compared", "chart:bar", { dimension: "channel", metrics: ["sessions"] }),
      widget(sourceId, "share", 4, "Channel share", "chart:pie", { dimension: "channel", metrics: ["sessions"] }),
    ]),
    styles: JSON.stringify({ insightsSummary: true }),
    range_type: "custom",
    start: "2026-10-19",
    end: "2026-10-31",
    language,
  });
  return { path, permalink };
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
  await expect(client.locator('article.dash-card[data-ready="false"]')).toHaveCount(0);
  await client.screenshot({ path: "screenshots/client-language-de.png", fullPage: true });
  await client.context().close();
});
